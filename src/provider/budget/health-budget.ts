/**
 * max_unhealthy: how many nodes of one budget take a health remediation step in one apply of this process. The first
 * nodes to ask go; beyond the limit a node is left as it is (its member warns and the next plan plans it again), so a
 * rack-wide failure — usually the fabric or the power, not the nodes — is not met by reimaging the whole rack.
 */
export class HealthBudget {
  private readonly started = new Map<string, Set<string>>();

  /** Whether `node` of budget `key` may take its step under `max` (null: no limit); a node admitted stays counted. */
  admit(key: string, node: string, max: number | null): boolean {
    const set = this.started.get(key) ?? new Set<string>();
    this.started.set(key, set);
    if (set.has(node) || max === null || set.size < max) {
      set.add(node);
      return true;
    }
    return false;
  }

  /** The nodes of `key` admitted in this process. */
  admitted(key: string): readonly string[] {
    return [...(this.started.get(key) ?? [])];
  }
}
