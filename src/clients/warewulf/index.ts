/** The Warewulf client: warewulfd's REST API (nodes, profiles, images, overlays) and its /status. */
export { type ImportOptions, WarewulfClient, type WarewulfClientOptions } from "./client.js";
export { WarewulfError, warewulfMessage } from "./errors.js";
export * as warewulfParse from "./parse.js";
export type { WarewulfSendOptions } from "./transport.js";
export * from "./types.js";
