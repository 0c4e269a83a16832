/** The rackform provider (re-exports only). */

export { DEFAULT_TIMINGS, type ProviderTimings, timingsFromEnv } from "./config/timings.js";
export { PROVIDER_VERSION, type RackformProviderOptions, rackformProvider } from "./provider.js";
