/**
 * Reading @Redfish.AllowableValues leniently but safely. Real firmware advertises values that are not clean enum
 * members: two values run together ("GracefulShutdownForceOff"), a letter swapped or dropped ("GracefulShutdwon"),
 * odd case or separators ("graceful-shutdown", "ForceOff, On"). The tolerance, applied only after an exact match
 * (inline, then ActionInfo) found nothing:
 * 1. an advertised string is compared case-insensitively with separators (space, comma, `-`, `_`, `/`, `|`) removed;
 * 2. it is split into one or more pieces that each name a member of the schema's enum for that parameter, exactly or
 *    with one edit (insert, delete, substitute or swap two neighbours) for pieces of six letters or more, and only when
 *    exactly one enum member is that close;
 * 3. a string that does not split entirely into enum members contributes nothing.
 * So a value is only ever sent when the BMC listed it in some recognisable form, and it is sent with the schema's
 * spelling (the BMC's action handler validates against its schema, not against its advertisement).
 */

/** ResetType (DSP8010 Resource.ResetType). */
export const RESET_TYPE_ENUM: readonly string[] = [
  "On",
  "ForceOff",
  "GracefulShutdown",
  "GracefulRestart",
  "ForceRestart",
  "Nmi",
  "ForceOn",
  "PushPowerButton",
  "PowerCycle",
  "Suspend",
  "Pause",
  "Resume",
  "FullPowerCycle",
];

/** BootSourceOverrideTarget (DSP8010 ComputerSystem.BootSource). */
export const BOOT_SOURCE_ENUM: readonly string[] = [
  "None",
  "Pxe",
  "Floppy",
  "Cd",
  "Usb",
  "Hdd",
  "BiosSetup",
  "Utilities",
  "Diags",
  "UefiShell",
  "UefiTarget",
  "SDCard",
  "UefiHttp",
  "RemoteDrive",
  "UefiBootNext",
  "Recovery",
];

const SEPARATORS = /[\s,;|/_-]+/g;
const MIN_FUZZY = 6;

/** Damerau–Levenshtein distance, capped: returns 2 for anything farther than 1. */
function withinOne(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff = [...a].flatMap((c, i) => (c !== b[i] ? [i] : []));
    if (diff.length === 1) return true;
    return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]];
  }
  const [s, l] = a.length < b.length ? [a, b] : [b, a];
  for (let i = 0; i < l.length; i++) if (l.slice(0, i) + l.slice(i + 1) === s) return true;
  return false;
}

/** The one enum member a piece names (exactly, else within one edit when long enough), or undefined. */
function member(piece: string, enumLower: readonly string[], enumValues: readonly string[]): string | undefined {
  const exact = enumLower.indexOf(piece);
  if (exact >= 0) return enumValues[exact];
  if (piece.length < MIN_FUZZY) return undefined;
  const near = enumLower.flatMap((e, i) => (e.length >= MIN_FUZZY - 1 && withinOne(piece, e) ? [enumValues[i]] : []));
  return near.length === 1 ? near[0] : undefined;
}

/** The enum members one advertised string stands for (see the file comment); [] when it does not split cleanly. */
export function tolerantMembers(advertised: string, enumValues: readonly string[]): string[] {
  const text = advertised.replace(SEPARATORS, "").toLowerCase();
  const lower = enumValues.map((e) => e.toLowerCase());
  // Shortest split into pieces that each name a member; memoised over the start offset.
  const memo = new Map<number, string[] | null>();
  const split = (at: number): string[] | null => {
    if (at === text.length) return [];
    if (memo.has(at)) return memo.get(at)!;
    let best: string[] | null = null;
    for (let end = text.length; end > at; end--) {
      const m = member(text.slice(at, end), lower, enumValues);
      if (!m) continue;
      const rest = split(end);
      if (rest && (!best || rest.length + 1 < best.length)) best = [m, ...rest];
    }
    memo.set(at, best);
    return best;
  };
  return split(0) ?? [];
}

/** Every enum member the advertised strings stand for under the tolerance, de-duplicated, in advertised order. */
export function tolerantAllowed(advertised: readonly string[], enumValues: readonly string[]): string[] {
  return [...new Set(advertised.flatMap((a) => tolerantMembers(a, enumValues)))];
}
