/**
 * Duplicates across resources, found at validation: two machines with one name, MAC or BMC, two BMC resources on one
 * BMC, two outlets on one outlet, two members for one scheduler node, two deployments or gates on one machine.
 *
 * A provider validates one resource at a time and ValidateResourceConfig carries no address, but one provider process
 * sees every resource of a walk (the engine starts a process per validate, plan and apply walk, and calls
 * ValidateResourceConfig once per resource instance of the walk, with the values known by then). So the registry
 * keeps, per identity claim, a fingerprint of the configuration that made it: a second, *different* configuration
 * claiming the same value is a duplicate; the same configuration validated again is not (an engine that validates one
 * instance twice must not get a false positive). Two resources with byte-identical configurations are therefore not
 * reported here (they would also claim the same backend object in create, where find-before-create stops them). The
 * registry is cleared by ConfigureProvider, so claims made with unknown values before configuration never meet the
 * known values of the same resources after it.
 */
import {
  type AttributePath,
  BigNumber,
  type Diagnostics,
  Dynamic,
  formatPath,
  isUnknown,
  type ObjectValue,
  path,
  type Resource,
  type Value,
} from "../../framework/index.js";
import { bmcOrigin, normalMac } from "../backends/backend.js";

/** One identity value a resource claims for itself. */
export interface Claim {
  /** What must be unique, in words: "machine name", "MAC address". Claims of one kind are compared. */
  readonly kind: string;
  /** The value compared, normalized (lower-case MAC, endpoint origin). */
  readonly key: string;
  /** The value as the user wrote it, for the message. */
  readonly shown: string;
  readonly path: AttributePath;
}

interface Owner {
  readonly fingerprint: string;
  /** How the message names the first claimant: its type and identifying attributes. */
  readonly described: string;
}

/** Claims of one provider process, cleared when the provider is configured. */
export class ClaimRegistry {
  private readonly owners = new Map<string, Owner>();

  /** Forgets every claim (ConfigureProvider starts a walk). */
  clear(): void {
    this.owners.clear();
  }

  /**
   * Records the claims of one resource configuration and reports, on this resource, each claim already held by a
   * different configuration; the first claimant keeps its claims.
   */
  claim(typeName: string, config: ObjectValue, claims: readonly Claim[], diags: Diagnostics): void {
    const fingerprint = `${typeName} ${fingerprintOf(config)}`;
    const described = describe(typeName, claims);
    for (const c of claims) {
      const k = `${c.kind}\u0000${c.key}`;
      const first = this.owners.get(k);
      if (!first) {
        this.owners.set(k, { fingerprint, described });
      } else if (first.fingerprint !== fingerprint) {
        diags.error(
          `Duplicate ${c.kind}`,
          `${formatPath(c.path)} = ${c.shown} is already claimed by another ${first.described} in this ` +
            `configuration; each ${c.kind} belongs to one resource. Change this one, or remove one of the two.`,
          c.path,
        );
      }
    }
  }
}

function describe(typeName: string, claims: readonly Claim[]): string {
  const first = new Map<string, string>();
  for (const c of claims) {
    const attr = formatPath(c.path).replace(/\[\d+\]$/, "");
    if (!first.has(attr)) first.set(attr, c.shown);
  }
  const parts = [...first].map(([a, v]) => `${a} = ${v}`);
  return parts.length > 0 ? `${typeName} (${parts.join(", ")})` : typeName;
}

/** A stable text of a configuration value; unknowns are one marker, so "not known yet" compares equal. */
export function fingerprintOf(v: Value): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (isUnknown(x)) return { "\u0000": "unknown" };
    if (x instanceof BigNumber) return { "\u0000": x.text };
    if (x instanceof Dynamic) return { "\u0000": x.value };
    return x;
  });
}

const known = (c: ObjectValue, name: string): string | undefined => {
  const v = c[name];
  return typeof v === "string" ? v : undefined;
};

const q = JSON.stringify;

/** The identity claims of each resource type that has any; unknown values claim nothing. */
export const CLAIMS: Readonly<Record<string, (c: ObjectValue) => Claim[]>> = {
  rackform_machine: (c) => {
    const out: Claim[] = [];
    const name = known(c, "name");
    const backend = known(c, "backend");
    if (name !== undefined && backend !== undefined) {
      out.push({ kind: `${backend} machine name`, key: name, shown: q(name), path: path("name") });
    }
    const bmc = known(c, "bmc_endpoint");
    if (bmc !== undefined) {
      out.push({ kind: "machine BMC endpoint", key: bmcOrigin(bmc), shown: q(bmc), path: path("bmc_endpoint") });
    }
    if (Array.isArray(c.macs)) {
      c.macs.forEach((m, i) => {
        if (typeof m === "string") {
          out.push({ kind: "machine MAC address", key: normalMac(m), shown: q(m), path: path("macs", i) });
        }
      });
    }
    return out;
  },
  rackform_bmc: (c) => {
    const endpoint = known(c, "endpoint");
    if (endpoint === undefined || isUnknown(c.system_id)) return [];
    const system = known(c, "system_id") ?? "";
    return [{ kind: "BMC", key: `${bmcOrigin(endpoint)} ${system}`, shown: q(endpoint), path: path("endpoint") }];
  },
  rackform_pdu_outlet: (c) => {
    const endpoint = known(c, "endpoint");
    const outlet = known(c, "outlet_id");
    if (endpoint === undefined || outlet === undefined || isUnknown(c.pdu_id)) return [];
    const key = `${bmcOrigin(endpoint)} ${known(c, "pdu_id") ?? ""} ${outlet}`;
    return [{ kind: "PDU outlet", key, shown: q(outlet), path: path("outlet_id") }];
  },
  rackform_deployment: (c) => {
    const id = known(c, "machine_id");
    return id === undefined ? [] : [{ kind: "deployed machine", key: id, shown: q(id), path: path("machine_id") }];
  },
  rackform_acceptance: (c) => {
    const id = known(c, "machine_id");
    return id === undefined ? [] : [{ kind: "gated machine", key: id, shown: q(id), path: path("machine_id") }];
  },
  rackform_cluster_member: (c) => {
    const scheduler = known(c, "scheduler");
    const node = known(c, "node");
    if (scheduler === undefined || node === undefined) return [];
    return [{ kind: `${scheduler} node`, key: node, shown: q(node), path: path("node") }];
  },
};

/**
 * The resource with the registry's check after its own validation. A configuration that already has an error claims
 * nothing: its values are not what the user means yet, and the error at hand is the one to fix.
 */
export function withClaims(r: Resource, registry: ClaimRegistry): Resource {
  const claimsOf = CLAIMS[r.typeName];
  if (!claimsOf) return r;
  const own = r.validateConfig;
  return {
    ...r,
    async validateConfig(req, resp) {
      if (own) await own.call(r, req, resp);
      if (resp.diagnostics.hasError()) return;
      registry.claim(r.typeName, req.config, claimsOf(req.config), resp.diagnostics);
    },
  };
}
