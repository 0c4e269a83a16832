// Prints the top self-time and inclusive-time entries of a V8 .cpuprofile (node --cpu-prof), by function and file,
// and the self time per source (node:internal, each dependency, each src layer — inside a bundle too).
// Usage: node scripts/cpu-prof-top.mjs <file.cpuprofile> [--top 25]
import { readFileSync } from "node:fs";

const file = process.argv[2];
if (!file) throw new Error("usage: node scripts/cpu-prof-top.mjs <file.cpuprofile> [--top N]");
const top = Number(process.argv[process.argv.indexOf("--top") + 1]) || 25;
const prof = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < prof.samples.length; i++) {
  const d = prof.timeDeltas[i] ?? 0;
  dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + d);
}
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const label = (n) => {
  const f = n.callFrame;
  const url = f.url.replace(/^.*\/(node_modules|dist|src)\//, "$1/");
  return `${f.functionName || "(anonymous)"} ${url}:${f.lineNumber + 1}`;
};
const self = new Map();
for (const [id, d] of dt) {
  const k = label(byId.get(id));
  self.set(k, (self.get(k) ?? 0) + d);
}
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
for (const [id, d] of dt) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = label(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + d);
  }
}
// A bundle (dist/provider.cjs) keeps esbuild's "// src/…" and "// node_modules/…" line before each module: a sample
// in a bundle is credited to the dependency or the src layer it came from.
const markers = new Map();
const markersOf = (url) => {
  if (!markers.has(url)) {
    const found = [];
    try {
      const lines = readFileSync(new URL(url), "utf8").split("\n");
      for (const [i, l] of lines.entries()) if (/^\/\/ (src|node_modules)\//.test(l)) found.push([i, l.slice(3)]);
    } catch {
      // Not a readable file: credited to the file itself.
    }
    markers.set(url, found);
  }
  return markers.get(url);
};
const moduleOf = (url, line) => {
  let m;
  for (const [i, path] of markersOf(url)) {
    if (i > line) break;
    m = path;
  }
  if (!m) return url.replace(/^.*\//, "");
  return m.replace(/^node_modules\/((@[^/]+\/)?[^/]+)\/.*/, "$1").replace(/^src\/([^/]+)\/.*/, "src/$1");
};
const source = new Map();
for (const [id, d] of dt) {
  const { url, lineNumber } = byId.get(id).callFrame;
  const k = !url ? "(native/gc/idle)" : url.startsWith("node:") ? "node:internal" : moduleOf(url, lineNumber);
  source.set(k, (source.get(k) ?? 0) + d);
}
const ms = (us) => `${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%`;
const show = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(v)}  ${k}`);
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
show("self time by source", source);
show("self time", self);
show("inclusive time", incl);
