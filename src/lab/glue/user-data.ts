/** What a deployed machine's user data (cloud-init, a config drive, a finalize script) says about its schedulers. */

/** Which schedulers a node joins. */
export type JoinTarget = "slurm" | "kubernetes";

/** Reads `rackform-join: slurm,kubernetes` lines (also `# rackform-join: …` comments) from user data. */
export function joinTargets(userData: string | undefined): JoinTarget[] {
  const out = new Set<JoinTarget>();
  for (const m of (userData ?? "").matchAll(/^\s*#?\s*rackform-join:\s*(.+)$/gim)) {
    for (const word of m[1].split(/[\s,]+/)) {
      const w = word
        .trim()
        .toLowerCase()
        .replace(/^["']|["']$/g, "");
      if (w === "slurm") out.add("slurm");
      if (w === "kubernetes" || w === "k8s") out.add("kubernetes");
    }
  }
  return [...out];
}

/**
 * Whether the user data starts slurmd as a dynamic node (`slurmd -Z`, e.g. in a runcmd line): slurmctld then creates
 * the node when it registers, and it can be deleted; otherwise the node is one slurm.conf lists.
 */
export function slurmdDynamic(userData: string | undefined): boolean {
  return (userData ?? "").split("\n").some((l) => /\bslurmd\b/.test(l) && /(^|[\s"'])-Z($|[\s"',\]])/.test(l));
}

/** Ironic's config drive: a dict with user_data (API ≥ 1.56), or a gzipped ISO/plain text we try to read as text. */
export function configDriveText(cd: unknown): string | undefined {
  if (cd && typeof cd === "object") {
    const ud = (cd as { user_data?: unknown }).user_data;
    return typeof ud === "string" ? ud : ud && typeof ud === "object" ? JSON.stringify(ud) : undefined;
  }
  if (typeof cd !== "string") return undefined;
  if (cd.includes("rackform-join")) return cd;
  return Buffer.from(cd, "base64").toString("utf8");
}
