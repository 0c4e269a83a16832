/** The Slurm client: node admission and drain through slurmrestd (API version negotiated, versions.ts). */
export { SLURM_DATA_PARSER, SlurmClient, type SlurmClientOptions } from "./client.js";
export { SlurmError, type SlurmRestError } from "./errors.js";
export * as slurmParse from "./parse.js";
export type { SlurmNode, WaitDrainedOptions } from "./types.js";
export {
  DEFAULT_SLURM_API_VERSION,
  type NodeUpdate,
  SLURM_API_VERSIONS,
  type SlurmApiVersion,
  slurmApiVersion,
} from "./versions.js";
