/** Logical ids: predictable resource names so plans, imports and `state mv` can be written from a node's name. */

/**
 * The chain's resources, in the order a node walks them, with the logical id suffix of each ("firmware" only when the
 * flavor has images or BIOS settings; a node's DPUs, between firmware and machine, are named by rack-dpus.ts).
 */
export const CHAIN_SUFFIXES = ["outlet", "bmc", "firmware", "machine", "deployment", "acceptance", "member"] as const;

/** One of CHAIN_SUFFIXES. */
export type ChainSuffix = (typeof CHAIN_SUFFIXES)[number];

/** A node name as a Terraform identifier: every character outside [A-Za-z0-9_] becomes "_", a leading digit gets "n". */
export function sanitize(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[0-9]/.test(id) ? `n${id}` : id;
}

/** The logical id of a node's resource: `<sanitized node>_<suffix>`, e.g. `r12_u07_bmc`. */
export const logicalId = (node: string, suffix: ChainSuffix): string => `${sanitize(node)}_${suffix}`;
