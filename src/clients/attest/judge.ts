/**
 * One judgement of a signed answer, shared by the gate and the offline re-check (`rackform attest verify`): verified
 * (spdm-verify.ts), then, when it verifies and reference values are given, compared with them (reference.ts).
 */
import type { AttestProblem } from "./problems.js";
import { compareReference, type ReferenceValues } from "./reference.js";
import { type VerifyInput, type VerifyResult, verifyAnswer } from "./spdm-verify.js";

/** Verifies the answer and compares its measurements with `refs` (the entry for `model` where models are named). */
export async function judgeAnswer(
  input: VerifyInput & { readonly refs?: ReferenceValues; readonly model?: string },
): Promise<VerifyResult> {
  const v = await verifyAnswer(input);
  if (!v.ok || !input.refs) return v;
  const opts = {
    ...(input.component ? { component: input.component } : {}),
    ...(input.model ? { model: input.model } : {}),
  };
  const more = compareReference(v.measurements, input.refs, opts);
  return { ...v, ok: more.length === 0, problems: [...v.problems, ...more] };
}

/** A problem as the gate's failure lines, the evidence and the offline check write it: "measurement: index 2: …". */
export const problemText = (p: AttestProblem): string => `${p.kind}: ${p.detail}`;
