/** StopProvider: cancel in-flight work and answer at once. */
import type { ServerState } from "./server-state.js";

/** Implements StopProvider by aborting the signal every handler's context carries. */
export async function stopProvider(s: ServerState): Promise<{ error?: string }> {
  s.log.info("stop requested: cancelling in-flight operations");
  s.stop();
  return {};
}
