/**
 * Counts the Redfish requests the lab's own MAAS power driver and Ironic conductor send to the BMCs. They reach the
 * BMCs with node:https from the benchmark's process, so counting those calls tells their requests apart from the
 * provider's in the lab's request log (which has no client address). Importing this module installs the counter.
 */
import https from "node:https";
import { syncBuiltinESMExports } from "node:module";

let calls = 0;
const realRequest = https.request;
https.request = ((...args: Parameters<typeof https.request>) => {
  calls++;
  return realRequest(...args);
}) as typeof https.request;
syncBuiltinESMExports();

/** Redfish requests the lab's backends have sent so far. */
export const backendBmcCalls = (): number => calls;
