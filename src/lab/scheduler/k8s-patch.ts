/**
 * The two patch formats the lab Kubernetes API accepts on nodes: JSON merge patch (RFC 7386) and the strategic
 * merge patch of core/v1, where `spec.taints` merges by `key` and `$patch: delete|replace` directives apply.
 */

type Json = unknown;

function isObj(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** RFC 7386: objects merge recursively, null deletes, anything else (arrays too) replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObj(patch)) return structuredClone(patch);
  const out: Record<string, Json> = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** List fields of core/v1 Node/Pod that merge by a key instead of being replaced (patchMergeKey). */
const MERGE_KEYS: Readonly<Record<string, string>> = {
  "spec.taints": "key",
  "status.conditions": "type",
  "status.addresses": "type",
  "metadata.ownerReferences": "uid",
};

/** A strategic merge patch for the fields the lab knows; other lists are replaced as in a merge patch. */
export function strategicMergePatch(target: Json, patch: Json, path = ""): Json {
  if (!isObj(patch)) return structuredClone(patch);
  if (patch.$patch === "replace") {
    const { $patch: _, ...rest } = patch;
    return structuredClone(rest);
  }
  if (patch.$patch === "delete") return undefined;
  const out: Record<string, Json> = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith("$")) continue;
    const p = path ? `${path}.${k}` : k;
    if (v === null) delete out[k];
    else if (Array.isArray(v) && MERGE_KEYS[p]) out[k] = mergeList(out[k], v, MERGE_KEYS[p]);
    else if (isObj(v)) {
      const merged = strategicMergePatch(out[k], v, p);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    } else out[k] = structuredClone(v);
  }
  return out;
}

function mergeList(current: Json, patch: Json[], key: string): Json[] {
  if (patch.some((e) => isObj(e) && e.$patch === "replace")) {
    return patch.filter((e) => !(isObj(e) && e.$patch === "replace")).map((e) => structuredClone(e));
  }
  const out: Json[] = Array.isArray(current) ? current.map((e) => structuredClone(e)) : [];
  for (const item of patch) {
    if (!isObj(item) || item[key] === undefined) {
      throw new PatchError(`the list at this path merges by "${key}"; every element needs a "${key}"`);
    }
    const i = out.findIndex((e) => isObj(e) && e[key] === item[key]);
    if (item.$patch === "delete") {
      if (i >= 0) out.splice(i, 1);
    } else if (i >= 0) out[i] = mergePatch(out[i], item);
    else out.push(structuredClone(item));
  }
  return out;
}

/** A patch the API server cannot apply (HTTP 422 Invalid / 400 BadRequest). */
export class PatchError extends Error {}
