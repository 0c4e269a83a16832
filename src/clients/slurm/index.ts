/** The Slurm client: node admission and drain through slurmrestd (data_parser v0.0.41). */
export { SLURM_DATA_PARSER, SlurmClient, type SlurmClientOptions } from "./client.js";
export { SlurmError, type SlurmRestError } from "./errors.js";
export * as slurmParse from "./parse.js";
export type { SlurmNode, WaitDrainedOptions } from "./types.js";
