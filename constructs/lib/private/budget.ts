/**
 * A cluster's disruption budget (`maxUnavailable`), checked against the nodes that join the cluster. The count is only
 * known once every rack has been added, so each stack holding one of its racks checks it when it is synthesized; the
 * error is scoped at the cluster, whose prop is wrong, not at a rack.
 */
import { TerraformStack } from "cdktf";
import type { IConstruct } from "constructs";
import type { MaxUnavailable } from "../cluster.js";
import type { ValidationProblem } from "../errors.js";
import { throwInvalid } from "./invalid.js";
import type { PropsSchema } from "./validate.js";

/** The props schema of `maxUnavailable`, shared by SlurmCluster and KubernetesCluster. */
export const MAX_UNAVAILABLE_SCHEMA: PropsSchema = {
  anyOf: [{ type: "integer", minimum: 1 }, { const: "all" }],
  expect: 'a whole number of nodes, at least 1, or "all"',
  fix: 'give how many nodes one apply may drain at once (below the number of nodes that join the cluster), or "all"',
};

/** Counts the nodes that join one cluster and checks its budget against them at synth. */
export class MemberBudget {
  private nodes = 0;
  private readonly stacks = new WeakSet<TerraformStack>();

  /** `owner` is the cluster construct; `max` its prop. */
  constructor(
    private readonly owner: IConstruct,
    private readonly max: MaxUnavailable | undefined,
  ) {}

  /** The member's max_unavailable: undefined (no budget) when not set or "all". */
  get memberValue(): number | undefined {
    return this.max === "all" ? undefined : this.max;
  }

  /** Adds a rack's nodes; the rack's stack checks the budget before it is synthesized. */
  addMembers(rack: IConstruct, count: number): void {
    this.nodes += count;
    if (typeof this.max !== "number") return;
    const stack = TerraformStack.of(rack);
    if (this.stacks.has(stack)) return;
    this.stacks.add(stack);
    stack.node.addValidation({
      validate: () => {
        // Thrown, not returned: cdktf would join returned messages into one untyped error without the fix's structure.
        const problems = this.problems();
        if (problems.length > 0) throwInvalid(this.owner.node.path, problems);
        return [];
      },
    });
  }

  /** A budget that is not below the number of member nodes limits nothing: say so and how to fix it. */
  problems(): ValidationProblem[] {
    if (typeof this.max !== "number" || this.max < this.nodes) return [];
    const range = this.nodes > 1 ? `use 1 to ${this.nodes - 1}` : "a single node cannot have a budget";
    return [
      {
        path: `${this.owner.node.path}/maxUnavailable`,
        problem: `${this.max} is not below the ${this.nodes} node${this.nodes === 1 ? "" : "s"} that join this cluster, so it limits nothing`,
        fix: `${range}, or write "all" to let every node be out of service at once (plan-summary flags it)`,
      },
    ];
  }
}
