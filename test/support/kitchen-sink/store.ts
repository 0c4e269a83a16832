/**
 * Where rfkitchen keeps its "remote" objects. Provider processes are short-lived, so e2e runs use a JSON file
 * (provider attribute store_path); unit tests without store_path use memory. Sync I/O keeps each
 * read-modify-write atomic within the process even when the engine applies resources in parallel.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { JsonObject } from "../../../src/framework/json-value.js";

/** A keyed store of JSON objects. */
export interface ObjectStore {
  get(id: string): JsonObject | undefined;
  put(id: string, obj: JsonObject): void;
  delete(id: string): void;
}

/** Objects kept in memory for the life of the provider object. */
export class MemoryStore implements ObjectStore {
  private readonly objects = new Map<string, JsonObject>();
  get(id: string): JsonObject | undefined {
    const o = this.objects.get(id);
    return o ? structuredClone(o) : undefined;
  }
  put(id: string, obj: JsonObject): void {
    this.objects.set(id, structuredClone(obj));
  }
  delete(id: string): void {
    this.objects.delete(id);
  }
}

/** Objects kept in one JSON file, rewritten atomically on every change. */
export class JsonFileStore implements ObjectStore {
  constructor(readonly path: string) {}
  private load(): Record<string, JsonObject> {
    if (!existsSync(this.path)) return {};
    return JSON.parse(readFileSync(this.path, "utf8")) as Record<string, JsonObject>;
  }
  private save(all: Record<string, JsonObject>): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all, null, 2));
    renameSync(tmp, this.path);
  }
  get(id: string): JsonObject | undefined {
    return this.load()[id];
  }
  put(id: string, obj: JsonObject): void {
    const all = this.load();
    all[id] = obj;
    this.save(all);
  }
  delete(id: string): void {
    const all = this.load();
    delete all[id];
    this.save(all);
  }
}

/** What the rfkitchen provider hands to its resources and data sources. */
export interface KitchenData {
  /** Undefined while store_path is unknown (plan before the path is known). */
  readonly store?: ObjectStore;
  readonly label: string;
}

/** The store from provider data, or an Error explaining why there is none. */
export function storeOf(data: unknown): ObjectStore {
  const d = data as KitchenData | undefined;
  if (!d) throw new Error("the rfkitchen provider was not configured");
  if (!d.store) throw new Error("store_path is not known yet; it must be known at apply time");
  return d.store;
}
