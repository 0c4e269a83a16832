/** RFC 6902 JSON Patch (add, replace, remove) over a plain object, with Ironic's messages for bad patches. */
import { invalid } from "./errors.js";

/** One patch operation as clients send it. */
export interface PatchOp {
  op: string;
  path: string;
  value?: unknown;
}

/** Validates the body of a PATCH: a non-empty list of {op, path[, value]}. */
export function parsePatch(body: unknown): PatchOp[] {
  if (!Array.isArray(body) || body.length === 0) throw invalid("Invalid input for field/attribute patch.");
  for (const p of body as PatchOp[]) {
    if (!p || typeof p !== "object" || typeof p.path !== "string" || !["add", "replace", "remove"].includes(p.op)) {
      throw invalid(`Invalid input for field/attribute patch. Value: '${JSON.stringify(p)}'.`);
    }
    if (p.op !== "remove" && !("value" in p)) throw invalid(`'add' and 'replace' operations need a value`);
  }
  return body as PatchOp[];
}

const unescapePointer = (s: string) => s.replace(/~1/g, "/").replace(/~0/g, "~");

/** Applies the operations to a deep copy of `doc` and returns it. */
export function applyPatch(doc: Record<string, unknown>, ops: readonly PatchOp[]): Record<string, unknown> {
  const out = structuredClone(doc);
  for (const op of ops) {
    const parts = op.path.split("/").slice(1).map(unescapePointer);
    const last = parts.pop();
    if (last === undefined || last === "") throw invalid(`Invalid patch path ${op.path}`);
    let parent: Record<string, unknown> = out;
    for (const p of parts) {
      const next = parent[p];
      if (next === null || typeof next !== "object") {
        if (op.op === "add") {
          parent[p] = {};
          parent = parent[p] as Record<string, unknown>;
          continue;
        }
        throw invalid(`can't replace a non-existent object '${p}'`);
      }
      parent = next as Record<string, unknown>;
    }
    if (op.op === "remove") {
      if (!(last in parent)) throw invalid(`can't remove a non-existent object '${last}'`);
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (op.op === "replace" && !(last in parent)) {
      throw invalid(`can't replace a non-existent object '${last}'`);
    } else {
      parent[last] = structuredClone(op.value);
    }
  }
  return out;
}
