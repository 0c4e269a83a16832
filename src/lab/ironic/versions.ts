/** Microversion negotiation (X-OpenStack-Ironic-API-Version) and the version discovery documents of GET / and GET /v1. */
import { IronicHttpError, pyJson } from "./errors.js";

/** Request/response header carrying the microversion (node:http lower-cases incoming names). */
export const VERSION_HEADER = "X-OpenStack-Ironic-API-Version";
/** Response header: oldest microversion served. */
export const MIN_HEADER = "X-OpenStack-Ironic-API-Minimum-Version";
/** Response header: newest microversion served. */
export const MAX_HEADER = "X-OpenStack-Ironic-API-Maximum-Version";

/** A parsed "1.NN" microversion; only the minor part varies within v1. */
export interface Microversion {
  readonly major: number;
  readonly minor: number;
}

/** The range a lab Ironic serves. */
export interface VersionRange {
  readonly min: Microversion;
  readonly max: Microversion;
}

/** Parses "1.82"; undefined when malformed. */
export function parseVersion(text: string): Microversion | undefined {
  const m = /^(\d+)\.(\d+)$/.exec(text.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

/** "1.82" */
export function formatVersion(v: Microversion): string {
  return `${v.major}.${v.minor}`;
}

function notAcceptable(description: string, headers: Record<string, string>): IronicHttpError {
  // Version errors come from webob, not wsme: a different body shape inside error_message (see error-406.json).
  const inner = pyJson({ code: 406, title: "Not Acceptable", description });
  return new IronicHttpError(406, { error_message: inner }, headers, description);
}

/**
 * The version a request asked for: absent = the minimum (as Ironic does), "latest" = the maximum.
 * Throws 406 with Ironic's messages outside the range; a malformed header gets no version headers, as in Ironic.
 */
export function negotiate(header: string | undefined, range: VersionRange): Microversion {
  if (header === undefined) return range.min;
  if (header.trim().toLowerCase() === "latest") return range.max;
  const v = parseVersion(header);
  if (!v) throw notAcceptable(`Invalid value for ${VERSION_HEADER} header`, {});
  const rangeText = `[${formatVersion(range.min)}, ${formatVersion(range.max)}]`;
  const headers = { [MIN_HEADER]: formatVersion(range.min), [MAX_HEADER]: formatVersion(range.max) };
  if (v.major !== range.max.major) {
    throw notAcceptable(
      `Mutually exclusive versions requested. Version ${formatVersion(v)} requested but not supported by this service. The supported version range is: ${rangeText}.`,
      headers,
    );
  }
  if (v.minor < range.min.minor || v.minor > range.max.minor) {
    throw notAcceptable(
      `Version ${formatVersion(v)} was requested but the minor version is not supported by this service. The supported version range is: ${rangeText}.`,
      headers,
    );
  }
  return v;
}

/** The `version` object both discovery documents carry. */
function versionObject(base: string, range: VersionRange): Record<string, unknown> {
  return {
    id: "v1",
    links: [{ href: `${base}/v1/`, rel: "self" }],
    status: "CURRENT",
    min_version: formatVersion(range.min),
    version: formatVersion(range.max),
  };
}

/** Body of GET / (api-root-response.json). */
export function rootDocument(base: string, range: VersionRange): Record<string, unknown> {
  const v = versionObject(base, range);
  return {
    name: "OpenStack Ironic API",
    description: "Ironic is an OpenStack project which enables the provision and management of baremetal machines.",
    default_version: v,
    versions: [v],
  };
}

/** Body of GET /v1 (api-v1-root-response.json, the resources the lab serves). */
export function v1Document(base: string, range: VersionRange): Record<string, unknown> {
  const res = (name: string) => [
    { href: `${base}/v1/${name}/`, rel: "self" },
    { href: `${base}/${name}/`, rel: "bookmark" },
  ];
  return {
    id: "v1",
    links: [
      { href: `${base}/v1/`, rel: "self" },
      {
        href: "https://docs.openstack.org//ironic/latest/contributor//webapi.html",
        rel: "describedby",
        type: "text/html",
      },
    ],
    media_types: { base: "application/json", type: "application/vnd.openstack.ironic.v1+json" },
    nodes: res("nodes"),
    ports: res("ports"),
    allocations: res("allocations"),
    version: versionObject(base, range),
  };
}
