/** Finding resources from the service root: a named link, a collection member by Id (or the only one). */
import { RedfishError } from "../errors.js";
import { isObj, lastSegment, link, members } from "./parse.js";
import type { RedfishTransport } from "./transport.js";

/** The link named `name` in the service root, or RACKFORM_ERR_REDFISH_NOT_FOUND. */
export async function serviceLink(t: RedfishTransport, name: string): Promise<string> {
  const ref = link(await t.root(), name);
  if (!ref) {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_NOT_FOUND",
      `the Redfish service at ${t.origin} has no ${name} (service root lacks the link)`,
    );
  }
  return ref;
}

/** The member of a collection with the given Id, or its only member when no id is given. */
export async function memberRef(
  t: RedfishTransport,
  collectionRef: string,
  id: string | undefined,
  what: string,
): Promise<string> {
  const refs = members(await t.getJson(collectionRef));
  const ids = refs.map(lastSegment);
  if (id === undefined) {
    if (refs.length === 1) return refs[0];
    const code = refs.length === 0 ? "RACKFORM_ERR_REDFISH_NOT_FOUND" : "RACKFORM_ERR_REDFISH_AMBIGUOUS";
    throw new RedfishError(code, `${t.origin} has ${refs.length} ${what}s (${ids.join(", ")}); name one`, {}, { ids });
  }
  const bySegment = refs[ids.indexOf(id)];
  if (bySegment) return bySegment;
  // Ids usually equal the last URI segment, but the spec does not require it: check the Id property.
  for (const r of refs) {
    const j = await t.getJson(r);
    if (isObj(j) && j.Id === id) return r;
  }
  throw new RedfishError(
    "RACKFORM_ERR_REDFISH_NOT_FOUND",
    `${t.origin} has no ${what} ${JSON.stringify(id)}; it has: ${ids.join(", ")}`,
    {},
    { ids },
  );
}
