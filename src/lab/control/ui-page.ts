/**
 * The lab's own page (`rackform lab up --ui`, GET /ui on the control API): the physical side — PDUs and their
 * outlets, each node's BMC state, host power and boot device, the active faults — with buttons that call the control
 * API the page is served by (flip an outlet, inject a fault, clear one or all). One HTML document, CSS and JS inline;
 * it reads GET /world once a second. Every text is set with textContent.
 */
import { BACKEND_FAULT_KINDS, REDFISH_FAULT_KINDS } from "../world/faults.js";

const KINDS = [...REDFISH_FAULT_KINDS, ...BACKEND_FAULT_KINDS];

const CSS = `
body{font:14px system-ui,sans-serif;margin:16px;background:#f7f7f8;color:#202124}
h1{font-size:18px;margin:0}h2{font-size:15px;margin:16px 0 6px}#time{color:#5f6368;font-size:12px}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #dadce0;padding:3px 8px;font-size:13px;text-align:left}
.on{background:#d9ead3}.off{background:#eee}.bad{background:#f4cccc}
button{font-size:12px;margin:0 2px}form{margin:6px 0}#err{color:#c5221f}
.pdus{display:flex;flex-wrap:wrap;gap:12px}
`;

const JS = `
const KINDS=${JSON.stringify(KINDS)};
function el(tag,attrs,text){const e=document.createElement(tag);for(const[k,v]of Object.entries(attrs||{}))e.setAttribute(k,v);if(text!==undefined)e.textContent=text;return e;}
async function call(method,path,body){
  const r=await fetch(path,{method,headers:{"content-type":"application/json"},body:body===undefined?undefined:JSON.stringify(body)});
  if(!r.ok){const t=await r.text();document.getElementById("err").textContent=method+" "+path+": "+t;}else document.getElementById("err").textContent="";
  await refresh();
}
function draw(w){
  document.getElementById("time").textContent="lab time "+w.time+" · profile "+w.profile;
  const byOutlet=new Map(w.nodes.map((n)=>[n.pdu+"/"+n.outlet,n]));
  const pdus=document.getElementById("pdus");pdus.replaceChildren();
  for(const p of w.pdus){
    const t=el("table",{class:"pdu","data-pdu":p.id});t.append(el("caption",{},p.id+" (rack "+p.rack+")"));
    p.outlets.forEach((st,i)=>{const n=byOutlet.get(p.id+"/"+(i+1));
      const tr=el("tr",{class:st==="On"?"on":"off","data-outlet":String(i+1),"data-state":st});
      tr.append(el("td",{},"outlet "+(i+1)),el("td",{},n?n.name:"·"),el("td",{},st));
      const td=el("td");const b=el("button",{"data-action":st==="On"?"outlet-off":"outlet-on","data-pdu":p.id,"data-outlet":String(i+1)},st==="On"?"switch off":"switch on");
      b.onclick=()=>call("POST","pdus/"+encodeURIComponent(p.id)+"/outlets/"+(i+1),{state:st==="On"?"Off":"On"});
      td.append(b);tr.append(td);t.append(tr);});
    pdus.append(t);
  }
  const body=document.getElementById("nodes");body.replaceChildren();
  for(const n of w.nodes){
    const faults=w.faults.filter((f)=>f.node===n.name||(!f.node&&!f.pdu));
    const tr=el("tr",{class:faults.length?"bad":n.powerState==="On"?"on":"off","data-node":n.name,"data-bmc":n.bmc,"data-power":n.powerState,"data-outlet-state":n.outletState});
    const boot=n.boot.enabled==="Disabled"?(n.boot.lastBootSource||"·"):n.boot.target+" ("+n.boot.enabled+")";
    for(const c of[n.name,n.rack,n.u==null?"·":"U"+n.u,n.pdu+"/"+n.outlet+" "+n.outletState,n.bmc,n.powerState,boot,n.gpus.count+"× "+(n.gpus.model||"GPU"),faults.map((f)=>f.kind).join(", ")||"·"])tr.append(el("td",{},String(c)));
    body.append(tr);
  }
  const fl=document.getElementById("faults");fl.replaceChildren();
  for(const f of w.faults){const li=el("li",{class:"fault","data-fault":f.id,"data-kind":f.kind});
    li.append(el("span",{},f.kind+" on "+(f.node||f.pdu||"every BMC and PDU")+(f.value!==undefined?" (value "+f.value+")":"")+" · "+f.hits+" hits "));
    const b=el("button",{"data-action":"clear-fault","data-fault":f.id},"clear");b.onclick=()=>call("DELETE","faults/"+encodeURIComponent(f.id));li.append(b);fl.append(li);}
  document.getElementById("nofaults").hidden=w.faults.length>0;
  const sel=document.getElementById("fnode");if(sel.options.length===0){sel.append(el("option",{value:""},"every BMC and PDU"));for(const n of w.nodes)sel.append(el("option",{value:n.name},n.name));}
}
async function refresh(){try{draw(await (await fetch("world")).json());}catch(e){document.getElementById("err").textContent=String(e);}}
const kinds=document.getElementById("fkind");for(const k of KINDS)kinds.append(el("option",{value:k},k));
document.getElementById("inject").onsubmit=(e)=>{e.preventDefault();const spec={kind:kinds.value};
  const node=document.getElementById("fnode").value;if(node)spec.node=node;
  const v=document.getElementById("fvalue").value;if(v!==""){const x=Number(v);if(spec.kind==="http-status")spec.status=x;else if(spec.kind==="latency")spec.ms=x;else if(spec.kind==="missing-gpu")spec.gpus=x;else if(spec.kind==="gpu-xid")spec.xid=x;else spec.value=x;}
  call("POST","faults",spec);};
document.getElementById("clearall").onclick=()=>call("DELETE","faults");
draw(INITIAL);setInterval(refresh,1000);
`;

/** The page, with the world as it is now drawn in it (so it shows before any fetch). */
export function labPage(world: unknown): string {
  const initial = JSON.stringify(world).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rackform lab</title><style>${CSS}</style></head>
<body><h1>rackform lab</h1><div id="time"></div><div id="err"></div>
<h2>PDUs and outlets</h2><div class="pdus" id="pdus"></div>
<h2>Nodes</h2><table><thead><tr><th>node</th><th>rack</th><th>U</th><th>outlet</th><th>BMC</th><th>host power</th>
<th>boot</th><th>GPUs</th><th>faults</th></tr></thead><tbody id="nodes"></tbody></table>
<h2>Faults</h2><p id="nofaults">none active</p><ul id="faults"></ul>
<form id="inject"><select id="fkind"></select> on <select id="fnode"></select>
<input id="fvalue" size="6" placeholder="value"> <button type="submit" data-action="inject">inject</button>
<button type="button" id="clearall" data-action="clear-all">clear all</button></form>
<script>const INITIAL=${initial};${JS}</script></body></html>
`;
}
