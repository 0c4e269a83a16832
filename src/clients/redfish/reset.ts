/**
 * Choosing the ResetType to send. BMCs advertise different subsets of #ComputerSystem.Reset; when the
 * requested one is missing, an equivalent is used only where the effect on the host is the same.
 */
import { RESET_TYPE_ENUM, tolerantAllowed } from "./allowable.js";

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

/** How a reset type was chosen: which list allowed it, for the log and the error. */
export interface ResetChoice {
  readonly sent?: string;
  /** "inline" (ResetType@Redfish.AllowableValues), "action-info", "tolerant", or "unstated" (nothing listed). */
  readonly via: "inline" | "action-info" | "tolerant" | "unstated";
  /** Every value the BMC listed, as it listed them (inline and ActionInfo). */
  readonly advertised?: readonly string[];
}

/**
 * Chooses the ResetType from the lists the BMC gives, in order: the inline AllowableValues, the ActionInfo (read only
 * when the inline list does not settle it; `actionInfo` resolves undefined when it cannot be read, e.g. 404), and
 * last the documented tolerance of allowable.ts over everything listed. The requested type itself is looked for in
 * all three before any equivalent is (so a misspelled "GracefulShutdwon" beats substituting PushPowerButton).
 * With nothing listed anywhere the request is sent as is.
 */
export async function resolveResetType(
  requested: ResetRequest,
  inline: readonly string[] | undefined,
  powerState: string | undefined,
  actionInfo: (() => Promise<readonly string[] | undefined>) | undefined,
): Promise<ResetChoice> {
  if (inline?.includes(requested)) return { sent: requested, via: "inline", advertised: inline };
  const fromInfo = actionInfo ? await actionInfo() : undefined;
  const advertised = [...(inline ?? []), ...(fromInfo ?? [])];
  if (advertised.length === 0) return { sent: requested, via: "unstated" };
  const tolerant = tolerantAllowed(advertised, RESET_TYPE_ENUM);
  const lists = [
    { via: "inline" as const, values: inline ?? [] },
    { via: "action-info" as const, values: fromInfo ?? [] },
    { via: "tolerant" as const, values: tolerant },
  ];
  for (const l of lists) if (l.values.includes(requested)) return { sent: requested, via: l.via, advertised };
  for (const l of lists) {
    const sent = l.values.length ? chooseResetType(requested, l.values, powerState) : undefined;
    if (sent) return { sent, via: l.via, advertised };
  }
  return { via: "tolerant", advertised };
}
