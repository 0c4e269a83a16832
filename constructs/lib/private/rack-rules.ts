/**
 * A Rack's cross-field rules, as a table of checks over the validated props: unique names, U positions and outlets,
 * outlets within their PDU, https BMCs and PDUs (unless allowed), known backend and scheduler, the settings
 * agreeing with each other, and a health policy only on a rack that rolls.
 */
import { BACKEND_KINDS } from "../backend.js";
import type { ValidationProblem } from "../errors.js";
import type { RackNode, RackPdu, RackProps } from "../rack.js";
import { bmcUrl } from "./formats.js";
import { sanitize } from "./names.js";
import { dpuProblems } from "./rack-dpus.js";
import { DEFAULT_PDU_OUTLETS } from "./rack-schema.js";
import { show } from "./validate.js";

type Rule = (base: string, props: RackProps) => ValidationProblem[];

/** For each item after the first with an already seen key, a problem naming both indexes. */
function duplicates<T>(
  items: readonly T[],
  key: (t: T) => string | undefined,
  report: (item: T, i: number, first: number) => ValidationProblem,
): ValidationProblem[] {
  const seen = new Map<string, number>();
  const problems: ValidationProblem[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    if (k === undefined) return;
    const first = seen.get(k);
    if (first === undefined) seen.set(k, i);
    else problems.push(report(item, i, first));
  });
  return problems;
}

const uniquePdus: Rule = (base, p) =>
  duplicates(
    p.pdus,
    (d) => d.name,
    (d, i, first) => ({
      path: `${base}/pdus[${i}].name`,
      problem: `${show(d.name)} is already the name of pdus[${first}]`,
      fix: "give every PDU of the rack its own name",
    }),
  );

const uniqueNodes: Rule = (base, p) =>
  duplicates(
    p.nodes,
    (n) => sanitize(n.name),
    (n, i, first) => ({
      path: `${base}/nodes[${i}].name`,
      problem:
        p.nodes[first].name === n.name
          ? `${show(n.name)} is already the name of nodes[${first}]`
          : `${show(n.name)} and nodes[${first}] ${show(p.nodes[first].name)} give the same resource names`,
      fix: "give every node its own host name",
    }),
  );

const uniqueU: Rule = (base, p) =>
  duplicates(
    p.nodes,
    (n) => String(n.u),
    (n, i, first) => ({
      path: `${base}/nodes[${i}].u`,
      problem: `U${n.u} is already taken by nodes[${first}] ${show(p.nodes[first].name)}`,
      fix: "give each node the U position it is racked at",
    }),
  );

const uniqueOutlets: Rule = (base, p) =>
  duplicates(
    p.nodes,
    (n) => `${n.pdu}#${n.outlet}`,
    (n, i, first) => ({
      path: `${base}/nodes[${i}].outlet`,
      problem: `outlet ${show(n.outlet)} of PDU ${show(n.pdu)} already feeds nodes[${first}] ${show(p.nodes[first].name)}`,
      fix: "give each node the outlet its power cord is plugged into",
    }),
  );

const uniqueBmcs: Rule = (base, p) =>
  duplicates(
    p.nodes,
    (n) => bmcUrl(n.bmc).replace(/\/+$/, "").toLowerCase(),
    (n, i, first) => ({
      path: `${base}/nodes[${i}].bmc`,
      problem: `${show(n.bmc)} is already the BMC of nodes[${first}] ${show(p.nodes[first].name)}`,
      fix: "give each node its own BMC address",
    }),
  );

const isPlainHttp = (url: string) => /^http:\/\//i.test(url);

/**
 * Plain http:// BMC and PDU URLs would carry the Redfish password in clear: refused at synth unless the rack's Redfish
 * settings opt in with allowHttp (which the provider block gets, so the provider then warns instead of refusing).
 */
const plainHttp: Rule = (base, p) => {
  if (p.redfish.allowHttp === true) return [];
  const fix =
    "use https:// (a conformant Redfish service serves it), or set allowHttp: true in the Redfish settings (unsafe: credentials travel unencrypted)";
  return [
    ...p.pdus.flatMap((d, i) =>
      isPlainHttp(d.endpoint)
        ? [{ path: `${base}/pdus[${i}].endpoint`, problem: `${show(d.endpoint)} is plain HTTP`, fix }]
        : [],
    ),
    ...p.nodes.flatMap((n, i) =>
      isPlainHttp(n.bmc) ? [{ path: `${base}/nodes[${i}].bmc`, problem: `${show(n.bmc)} is plain HTTP`, fix }] : [],
    ),
  ];
};

function outletProblem(base: string, n: RackNode, i: number, pdus: readonly RackPdu[]): ValidationProblem[] {
  const pdu = pdus.find((d) => d.name === n.pdu);
  if (!pdu) {
    return [
      {
        path: `${base}/nodes[${i}].pdu`,
        problem: `${show(n.pdu)} is not a PDU of this rack`,
        fix: `use one of ${pdus.map((d) => show(d.name)).join(", ")}`,
      },
    ];
  }
  const outlets = pdu.outlets ?? DEFAULT_PDU_OUTLETS;
  if (typeof n.outlet === "number" && n.outlet > outlets) {
    return [
      {
        path: `${base}/nodes[${i}].outlet`,
        problem: `${n.outlet} is out of range: PDU ${show(pdu.name)} has outlets 1..${outlets}`,
        fix:
          pdu.outlets === undefined
            ? `use an outlet in 1..${outlets}, or set outlets on PDU ${show(pdu.name)}`
            : `use an outlet in 1..${outlets}`,
      },
    ];
  }
  return [];
}

const knownOutlets: Rule = (base, p) => p.nodes.flatMap((n, i) => outletProblem(base, n, i, p.pdus));

const knownBackend: Rule = (base, p) => {
  const kind = (p.backend as { kind?: unknown }).kind;
  if ((BACKEND_KINDS as readonly unknown[]).includes(kind)) return [];
  return [
    {
      path: `${base}/backend.kind`,
      problem: `${show(kind)} is not a backend rackform knows`,
      fix: "pass a MaasBackend or an IronicBackend",
    },
  ];
};

const KNOWN_SCHEDULERS: readonly unknown[] = ["slurm", "kubernetes"];

const knownScheduler: Rule = (base, p) => {
  const s = (p.cluster as { scheduler?: unknown }).scheduler;
  if (KNOWN_SCHEDULERS.includes(s)) return [];
  return [
    {
      path: `${base}/cluster.scheduler`,
      problem: `${show(s)} is not a scheduler rackform knows`,
      fix: "pass a SlurmCluster or a KubernetesCluster",
    },
  ];
};

const joinLine: Rule = (base, p) => {
  if (p.userData === undefined || !(BACKEND_KINDS as readonly unknown[]).includes(p.backend.kind)) return [];
  const line = /rackform-join:\s*([^\n]*)/.exec(p.userData)?.[1] ?? "";
  if (line.split(",").some((s) => s.trim() === p.cluster.scheduler)) return [];
  return [
    {
      path: `${base}/userData`,
      problem: `joins ${show(line.trim())}, but the rack's cluster is ${p.cluster.scheduler}`,
      fix: `write \`rackform-join: ${p.cluster.scheduler}\` in the user data`,
    },
  ];
};

const agreeing: Rule = (base, p) => {
  if (!(BACKEND_KINDS as readonly unknown[]).includes(p.backend.kind)) return [];
  return p.backend.problemsWithImage(p.image, `rack ${base}`);
};

/**
 * The ladder's steps are carried out in place by each node's cluster member, inside the disruption budget, which
 * only a rolling rack's members have: health on a rack whose cluster sets no budget would be written and never act.
 */
const healthNeedsBudget: Rule = (base, p) => {
  if (p.health === undefined || !KNOWN_SCHEDULERS.includes(p.cluster.scheduler)) return [];
  if (p.cluster.memberSettings(p.flavor).maxUnavailable !== undefined) return [];
  const cluster = show(p.cluster.node.path);
  return [
    {
      path: `${base}/health`,
      problem: `health policy ${show(p.health.node.path)} needs a disruption budget, but cluster ${cluster} sets no maxUnavailable (left out, or "all"), so the rack does not roll and no member could carry a remediation step out`,
      fix: `set maxUnavailable on cluster ${cluster} (how many nodes may be out of service at once, e.g. 1) so the rack rolls, or leave health out`,
    },
  ];
};

const SETTINGS = ["flavor", "image", "acceptance", "backend", "cluster", "redfish"] as const;
const FIXES: Record<(typeof SETTINGS)[number], string> = {
  flavor: "pass a Flavor",
  image: "pass an Image",
  acceptance: "pass an AcceptancePolicy",
  backend: "pass a MaasBackend or an IronicBackend",
  cluster: "pass a SlurmCluster or a KubernetesCluster",
  redfish: 'pass Redfish settings, e.g. { username: "admin" }',
};

/** The settings a rack cannot be built without (JavaScript callers have no compiler to catch a missing one). */
const present: Rule = (base, p) =>
  SETTINGS.filter((k) => p[k] === undefined || p[k] === null).map((k) => ({
    path: `${base}/${k}`,
    problem: "is missing",
    fix: FIXES[k],
  }));

const RULES: readonly Rule[] = [
  uniquePdus,
  uniqueNodes,
  uniqueU,
  uniqueOutlets,
  uniqueBmcs,
  plainHttp,
  knownOutlets,
  knownBackend,
  knownScheduler,
  joinLine,
  agreeing,
  dpuProblems,
  healthNeedsBudget,
];

/** Every problem a Rack's rules find after its schema; the others assume every setting is present. */
export function rackRuleProblems(base: string, props: RackProps): ValidationProblem[] {
  const missing = present(base, props);
  return missing.length > 0 ? missing : RULES.flatMap((rule) => rule(base, props));
}
