/** The provider server's public surface; re-exports only. */
export { createServer, type ServerOptions } from "./create-server.js";
export type * from "./rpc.js";
