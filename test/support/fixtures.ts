/** Where the recorded real payloads live: `shared/fixtures` beside the repository (as CI lays it out), or $RACKFORM_FIXTURES. */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the shared fixtures folder. */
export const FIXTURES =
  process.env.RACKFORM_FIXTURES ??
  resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "shared", "fixtures");
