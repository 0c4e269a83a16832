/** The rackform provider (re-exports only). */
export { PROVIDER_VERSION, type RackformProviderOptions, rackformProvider } from "./provider.js";
export { DEFAULT_TIMINGS, type ProviderTimings, timingsFromEnv } from "./timings.js";
