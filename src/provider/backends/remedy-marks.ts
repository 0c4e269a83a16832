/**
 * The mark a health remedy leaves on its machine once carried out (the remediation ladder, ../shared/remediation.ts).
 * rackform_deployment counts a ladder step as run only when the mark of its own offer is there: a gate run proves
 * nothing about the remedy, since the gate also runs for other causes in the same apply (rackform_acceptance's own
 * re-run on a GPU count drop), while the member that carries the remedy may never run.
 *
 * Each backend keeps the mark in a free-form field of the machine that any later process reads back: MAAS owner data
 * (op=set_owner_data; dropped on release, so a reimage marks after its deploy), Ironic's `extra`, a Warewulf node
 * tag, a line of the BCM device's notes (the operator's other lines kept).
 */
import type { BcmClient } from "../../clients/bcm/index.js";
import type { IronicClient } from "../../clients/ironic/index.js";
import type { MaasClient, MaasMachine } from "../../clients/maas/index.js";
import type { WarewulfClient } from "../../clients/warewulf/index.js";

/** The key (owner data, extra, tag) the mark is kept under. */
export const REMEDY_KEY = "rackform_remedy";

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const member = (o: unknown, k: string): unknown =>
  o !== null && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined;

/** MAAS: the mark in the machine's owner data. */
export async function maasNoteRemedy(c: MaasClient, id: string, mark: string, signal?: AbortSignal): Promise<void> {
  await c.setOwnerData(id, { [REMEDY_KEY]: mark }, signal);
}

/** MAAS: the mark, from the list a refresh shares (a direct read for a machine it misses). */
export async function maasLastRemedy(c: MaasClient, id: string, signal?: AbortSignal): Promise<string | undefined> {
  const m: MaasMachine = (await c.machines.get(id)) ?? (await c.getMachine(id, signal));
  return text(member(m.raw.owner_data, REMEDY_KEY));
}

/** Ironic: the mark in the node's `extra` (JSON patch; retried while the node is locked). */
export async function ironicNoteRemedy(c: IronicClient, id: string, mark: string, signal?: AbortSignal) {
  await c.updateNode(id, [{ op: "add", path: `/extra/${REMEDY_KEY}`, value: mark }], signal);
}

/** Ironic: the mark, from the node's `extra` as a read of it (shared list or direct) holds it. */
export const ironicRemedyOf = (extra: unknown): string | undefined => text(member(extra, REMEDY_KEY));

/** Warewulf: the mark as a node tag. */
export async function warewulfNoteRemedy(c: WarewulfClient, id: string, mark: string, signal?: AbortSignal) {
  await c.patchNode(id, { tags: { [REMEDY_KEY]: mark } }, signal);
}

/** Warewulf: the mark, from the node's tags. */
export async function warewulfLastRemedy(c: WarewulfClient, id: string, signal?: AbortSignal) {
  const n = await c.getNode(id, { raw: true, signal });
  return text(n?.fields.tags?.[REMEDY_KEY]);
}

const NOTE = `${REMEDY_KEY}: `;

/** BCM: the mark as one line of the device's notes, replacing an earlier mark and keeping every other line. */
export async function bcmNoteRemedy(c: BcmClient, id: string, mark: string, signal?: AbortSignal): Promise<void> {
  const d = await c.mustGetDevice(id, signal);
  const kept = String(d.raw.notes ?? "")
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith(NOTE));
  await c.updateDevice(d, { notes: [...kept, `${NOTE}${mark}`].join("\n") }, signal);
}

/** BCM: the mark, from the device's notes. */
export async function bcmLastRemedy(c: BcmClient, id: string, signal?: AbortSignal): Promise<string | undefined> {
  const d = await c.getDevice(id, signal);
  const line = String(d?.raw.notes ?? "")
    .split("\n")
    .filter((l) => l.startsWith(NOTE))
    .at(-1);
  return text(line?.slice(NOTE.length));
}
