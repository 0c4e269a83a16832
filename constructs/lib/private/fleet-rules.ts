/** A Fleet's schema and cross-field rules: rack names, waves naming known racks once each, the canary's size. */
import type { ValidationProblem } from "../errors.js";
import type { FleetProps } from "../fleet.js";
import { type PropsSchema, show } from "./validate.js";

/** Schema of FleetProps' data (racks' names, waves, canary, state); each rack's PDUs and nodes are its Rack's. */
export const FLEET_SCHEMA: PropsSchema = {
  type: "object",
  required: ["racks"],
  properties: {
    racks: {
      type: "array",
      minItems: 1,
      expect: "a list of at least one rack",
      fix: "list the fleet's racks: { name, pdus, nodes }",
      items: {
        type: "object",
        required: ["name", "pdus", "nodes"],
        properties: {
          pdus: { type: "array" },
          nodes: { type: "array" },
          name: {
            type: "string",
            pattern: "^[A-Za-z0-9][A-Za-z0-9_-]*$",
            expect: "a rack name",
            fix: "use letters, digits, '-' and '_' (it names the rack's stack)",
          },
        },
      },
    },
    waves: {
      type: "array",
      minItems: 1,
      expect: "a list of waves",
      fix: 'list waves of rack names, e.g. [["r01"], ["r02", "r03"]], or leave waves out',
      items: {
        type: "array",
        minItems: 1,
        expect: "a wave of at least one rack",
        fix: "remove the empty wave",
        items: { type: "string", expect: "a rack name", fix: "name a rack of the fleet" },
      },
    },
    canary: {
      type: "integer",
      minimum: 1,
      expect: "a whole number of racks, at least 1",
      fix: "give how many racks go first, e.g. 1, or leave canary out",
    },
  },
};

type Rule = (base: string, p: FleetProps) => ValidationProblem[];

const uniqueRacks: Rule = (base, p) => {
  const first = new Map<string, number>();
  return p.racks.flatMap((r, i) => {
    const at = first.get(r.name);
    if (at === undefined) {
      first.set(r.name, i);
      return [];
    }
    return [
      {
        path: `${base}/racks[${i}].name`,
        problem: `${show(r.name)} is already the name of racks[${at}]`,
        fix: "give every rack its own name",
      },
    ];
  });
};

const wavesNameRacksOnce: Rule = (base, p) => {
  if (p.waves === undefined) return [];
  const names = new Set(p.racks.map((r) => r.name));
  const waveOf = new Map<string, number>();
  const problems: ValidationProblem[] = [];
  for (const [w, wave] of p.waves.entries()) {
    for (const [i, name] of wave.entries()) {
      const path = `${base}/waves[${w}][${i}]`;
      const had = waveOf.get(name);
      if (!names.has(name)) {
        const known = [...names].map((n) => show(n)).join(", ");
        problems.push({ path, problem: `${show(name)} is not a rack of the fleet`, fix: `use one of ${known}` });
      } else if (had !== undefined) {
        problems.push({
          path,
          problem: `rack ${show(name)} is already in waves[${had}]`,
          fix: "put every rack in exactly one wave",
        });
      } else {
        waveOf.set(name, w);
      }
    }
  }
  for (const name of names) {
    if (!waveOf.has(name)) {
      problems.push({
        path: `${base}/waves`,
        problem: `rack ${show(name)} is in no wave, so it would never be deployed`,
        fix: `add ${show(name)} to a wave, or leave waves out`,
      });
    }
  }
  return problems;
};

const canaryFits: Rule = (base, p) => {
  if (p.canary === undefined || p.canary < p.racks.length) return [];
  return [
    {
      path: `${base}/canary`,
      problem: `${p.canary} is not smaller than the fleet's ${p.racks.length} racks, so no rack would wait for the canary`,
      fix:
        p.racks.length > 1
          ? `use a canary of 1..${p.racks.length - 1} racks, or leave it out`
          : "leave canary out: a one-rack fleet has no later wave to hold back",
    },
  ];
};

/** Every rule a Fleet checks after its schema. */
export const FLEET_RULES: readonly Rule[] = [uniqueRacks, wavesNameRacksOnce, canaryFits];

/** Rack names per wave: the canary (the first `canary` racks in wave order) first, then the waves without them. */
export function planWaves(p: FleetProps): string[][] {
  const waves = p.waves ? p.waves.map((w) => [...w]) : [p.racks.map((r) => r.name)];
  if (p.canary === undefined) return waves;
  const canary = waves.flat().slice(0, p.canary);
  const rest = waves.map((w) => w.filter((r) => !canary.includes(r))).filter((w) => w.length > 0);
  return [canary, ...rest];
}
