/**
 * The watch page: one HTML document with its CSS and JS inline (no build step, no external asset). The snapshot at
 * the time of the request is embedded and drawn before the load event (so `chromium --dump-dom` sees it); later ones
 * arrive as server-sent events on /events. Every text is set with textContent, never as HTML.
 */
import { STAGE_COLOUR, STAGE_LABEL, STAGES } from "../stages.js";
import type { WatchSnapshot } from "./model.js";

/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c");

const CSS = `
body{font:14px system-ui,sans-serif;margin:16px;background:#f7f7f8;color:#202124}
h1{font-size:18px;margin:0 0 4px}#time{color:#5f6368;font-size:12px}
.legend span,.counts span{display:inline-block;margin:2px 6px 2px 0;padding:1px 6px;border-radius:3px;color:#fff;font-size:12px}
.racks{display:flex;flex-wrap:wrap;gap:16px;margin-top:12px}
.rack{background:#fff;border:1px solid #dadce0;border-radius:6px;padding:8px;width:260px}
.rack h2{font-size:15px;margin:0 0 4px}.eta{color:#5f6368;font-size:12px;margin-bottom:6px}
.elevation{border:2px solid #3c4043;border-radius:3px;padding:2px;background:#3c4043}
.node{display:flex;justify-content:space-between;margin:2px 0;padding:3px 6px;border-radius:2px;color:#fff;font-size:12px}
.node .slot{opacity:.8}.error{color:#c5221f;font-size:12px}
#failures li{margin:4px 0}#failures .d{color:#5f6368}
`;

const JS = `
const COLOUR=${scriptJson(STAGE_COLOUR)};const LABEL=${scriptJson(STAGE_LABEL)};const ORDER=${scriptJson(STAGES)};
function el(tag,cls,text){const e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined)e.textContent=text;return e;}
function fmt(ms){const s=Math.round(ms/1000);return s>=60?Math.floor(s/60)+"m"+String(s%60).padStart(2,"0")+"s":s+"s";}
function draw(s){
  document.getElementById("time").textContent="as of "+s.time;
  const racks=document.getElementById("racks");racks.replaceChildren();
  for(const r of s.racks){
    const sec=el("section","rack");sec.dataset.rack=r.label;
    sec.append(el("h2",null,r.label+" · "+r.nodes.length+" nodes"));
    const eta=r.etaMs===undefined?"ETA unknown":r.etaMs===0?"settled":"ETA "+fmt(r.etaMs);
    sec.append(el("div","eta",eta));
    const counts=el("div","counts");
    for(const st of ORDER){const n=r.counts[st]||0;if(!n)continue;const c=el("span","count",n+" "+LABEL[st]);c.dataset.stage=st;c.dataset.count=String(n);c.style.background=COLOUR[st];counts.append(c);}
    sec.append(counts);
    if(r.error)sec.append(el("div","error","not read: "+r.error));
    const elev=el("div","elevation");
    for(const n of r.nodes){const d=el("div","node");d.dataset.node=n.name;d.dataset.stage=n.stage;d.style.background=COLOUR[n.stage];
      d.title=(n.detail||"")+(n.backendStatus?" ("+n.backendStatus+")":"");
      d.append(el("span","name",n.name),el("span","slot",LABEL[n.stage]));elev.append(d);}
    sec.append(elev);racks.append(sec);
  }
  const f=document.getElementById("failures");f.replaceChildren();
  for(const x of s.failures){const li=el("li","failure");li.dataset.node=x.node;li.dataset.stage=x.stage;
    li.append(el("b",null,x.rack+"/"+x.node+" "+LABEL[x.stage]+": "),el("span","d",x.detail||"(no detail)"));f.append(li);}
  document.getElementById("nofailures").hidden=s.failures.length>0;
  const le=document.getElementById("liveerrors");le.textContent=s.liveErrors.join("; ");
}
const legend=document.getElementById("legend");
for(const st of ORDER){const c=el("span",null,LABEL[st]);c.style.background=COLOUR[st];legend.append(c);}
draw(INITIAL);
// Connected after the load event, so the page counts as loaded (headless --dump-dom and --screenshot wait for it).
addEventListener("load",()=>setTimeout(()=>{if(!window.EventSource)return;const es=new EventSource("events");es.addEventListener("snapshot",(e)=>draw(JSON.parse(e.data)));},0));
`;

/** The page with `snapshot` drawn in it. */
export function watchPage(snapshot: WatchSnapshot): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rackform watch</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${CSS}</style></head>
<body><h1>rackform watch</h1><div id="time"></div><div class="legend" id="legend"></div>
<div class="racks" id="racks"></div>
<h2>Failures</h2><p id="nofailures">none</p><ul id="failures"></ul><div class="error" id="liveerrors"></div>
<script>const INITIAL=${scriptJson(snapshot)};${JS}</script>
</body></html>
`;
}
