/**
 * Choosing the ResetType to send. BMCs advertise different subsets of #ComputerSystem.Reset; when the
 * requested one is missing, an equivalent is used only where the effect on the host is the same.
 */

/** Reset types a caller asks for. */
export type ResetRequest =
  | "On"
  | "ForceOff"
  | "GracefulShutdown"
  | "GracefulRestart"
  | "ForceRestart"
  | "PowerCycle"
  | "Nmi";

/**
 * Substitutes in order of preference. A PushPowerButton toggles power, so it stands in only when the current
 * power state makes the toggle go the requested way ("when" is the state the host must be in).
 */
const SUBSTITUTES: Readonly<Record<ResetRequest, readonly { readonly type: string; readonly when?: string }[]>> = {
  On: [{ type: "On" }, { type: "ForceOn" }, { type: "PushPowerButton", when: "Off" }],
  ForceOff: [{ type: "ForceOff" }],
  // A short press of the power button is an ACPI shutdown request: the same as GracefulShutdown.
  GracefulShutdown: [{ type: "GracefulShutdown" }, { type: "PushPowerButton", when: "On" }],
  GracefulRestart: [{ type: "GracefulRestart" }],
  // Both cut the host off without OS cooperation and bring it back.
  ForceRestart: [{ type: "ForceRestart" }, { type: "PowerCycle" }],
  PowerCycle: [{ type: "PowerCycle" }, { type: "ForceRestart" }],
  Nmi: [{ type: "Nmi" }],
};

/**
 * The ResetType to send for `requested`, given the allowed list (undefined: the BMC does not say, so the
 * request is sent as is) and the current power state. Undefined when nothing allowed is equivalent.
 */
export function chooseResetType(
  requested: ResetRequest,
  allowed: readonly string[] | undefined,
  powerState: string | undefined,
): string | undefined {
  if (!allowed) return requested;
  for (const s of SUBSTITUTES[requested] ?? [{ type: requested }]) {
    if (!allowed.includes(s.type)) continue;
    if (s.when && s.when !== powerState) continue;
    return s.type;
  }
  return undefined;
}
