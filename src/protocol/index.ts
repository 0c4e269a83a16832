/** The protocol layer: tfplugin6 over gRPC. Only this folder sees protobuf, gRPC and msgpack. */

export type { WireDynamicValue } from "./codec.js";
export {
  decodeDynamicValue,
  decodeJson,
  decodeMsgpack,
  encodeDynamicValue,
  encodeMsgpack,
  inferType,
} from "./codec.js";
export { parseCtyType, typeJson } from "./cty-type.js";
export { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, PROTOCOL_VERSION } from "./handshake.js";
export { parseJsonLossless } from "./json.js";
export { canonicalNumber } from "./numbers.js";
export { encodeProviderSchema, PREBUILT_SCHEMA_KEY, prebuiltProviderSchema } from "./prebuilt-schema.js";
export { loadProtocol } from "./proto.js";
export { type ProviderSource, type ServeOptions, serve } from "./serve.js";
export { generateCertificate } from "./tls.js";
