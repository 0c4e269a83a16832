/**
 * Where a watch reads its stacks from: a CDKTF project (its `cdktf.json` names the output folder), a cdktf.out folder
 * (one stack per `stacks/<name>`), one stack folder, an initialized working directory, a `.tfstate` file, or a
 * PostgreSQL connection string (the pg backend, read through a throwaway configuration that never creates a schema or
 * table). A state file — a `.tfstate` given by name, or a stack's local backend — is read as JSON (state format 4),
 * which needs no engine and no provider schema; everything else through the engine's own `show -json`, so every
 * backend the engine supports works. Nothing here writes to a backend or a state.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** A resource as `show -json` reports it from state. */
export interface StateResource {
  readonly address: string;
  readonly mode: string;
  readonly type: string;
  readonly name: string;
  readonly values?: Record<string, unknown>;
  readonly depends_on?: readonly string[];
  readonly tainted?: boolean;
}

interface StateModule {
  readonly resources?: readonly StateResource[];
  readonly child_modules?: readonly StateModule[];
}

/** What one read of a stack found: its state's resources, and the configuration when the stack has a cdk.tf.json. */
export interface StackRead {
  readonly resources: readonly StateResource[];
  readonly config?: Record<string, unknown>;
}

/** One stack to watch. */
export interface StackSource {
  /** The rack label: the user's `LABEL=`, else the stack's name. */
  readonly label: string;
  read(): Promise<StackRead>;
  close(): void;
}

/** How the engine is run. */
export interface EngineRunner {
  readonly bin: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A source the watch cannot read; the message names the source and the fix. */
export class WatchSourceError extends Error {
  override readonly name = "WatchSourceError";
}

function exec(engine: EngineRunner, args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done, fail) => {
    const env = { ...engine.env, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
    const c = spawn(engine.bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    c.stdout.on("data", (d) => {
      out += d;
    });
    c.stderr.on("data", (d) => {
      err += d;
    });
    c.on("error", fail);
    c.on("close", (code) => done({ code: code ?? 1, out, err }));
  });
}

function flatten(mod: StateModule | undefined, out: StateResource[] = []): StateResource[] {
  for (const r of mod?.resources ?? []) out.push(r);
  for (const c of mod?.child_modules ?? []) flatten(c, out);
  return out;
}

/** Runs `show -json [file]` in `cwd` and returns the state's resources. */
async function show(engine: EngineRunner, cwd: string, what: string, file?: string): Promise<StateResource[]> {
  const r = await exec(engine, ["show", "-json", "-no-color", ...(file ? [file] : [])], cwd);
  if (r.code !== 0) {
    const first = r.err.split("\n").find((l) => l.trim() !== "" && !/^\s*│?\s*$/.test(l)) ?? `exit ${r.code}`;
    throw new WatchSourceError(
      `${what}: \`${basename(engine.bin)} show -json\` failed: ${first.replace(/^[│╷╵ ]+/, "")}`,
    );
  }
  // OpenTofu may print a warning line before the document on stdout: the JSON starts at the first line opening "{".
  const start = r.out.startsWith("{") ? 0 : r.out.indexOf("\n{") + 1;
  const parsed = JSON.parse(r.out.slice(start)) as { values?: { root_module?: StateModule } };
  return flatten(parsed.values?.root_module);
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A resource of a state file (format 4): its instances with their attributes, status and dependencies. */
interface StateFileResource {
  readonly module?: string;
  readonly mode?: string;
  readonly type?: string;
  readonly name?: string;
  readonly instances?: readonly {
    readonly index_key?: string | number;
    readonly status?: string;
    readonly attributes?: Record<string, unknown>;
    readonly dependencies?: readonly string[];
  }[];
}

/** The resources of a state file's text, as `show -json` reports them; throws WatchSourceError naming `what`. */
export function stateFileResources(text: string, what: string): StateResource[] {
  let doc: { version?: unknown; resources?: readonly StateFileResource[] };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch {
    throw new WatchSourceError(
      `${what}: not a state file (not JSON); give a .tfstate, a working directory or cdktf.out`,
    );
  }
  if (doc.version !== 4 || (doc.resources !== undefined && !Array.isArray(doc.resources)))
    throw new WatchSourceError(`${what}: not a state file of format 4 (Terraform ≥ 0.12, OpenTofu)`);
  const out: StateResource[] = [];
  for (const r of doc.resources ?? []) {
    const mode = r.mode === "data" ? "data" : "managed";
    const base = `${r.module ? `${r.module}.` : ""}${mode === "data" ? "data." : ""}${r.type}.${r.name}`;
    for (const i of r.instances ?? []) {
      const key = i.index_key === undefined ? "" : `[${JSON.stringify(i.index_key)}]`;
      out.push({
        address: base + key,
        mode,
        type: String(r.type),
        name: String(r.name),
        values: i.attributes ?? {},
        ...(i.dependencies ? { depends_on: i.dependencies } : {}),
        ...(i.status === "tainted" ? { tainted: true } : {}),
      });
    }
  }
  return out;
}

/**
 * Reads a state file; a file not written yet is an empty state (a stack whose first apply has not started). The
 * engine rewrites the file in place as resources complete, so a read can meet it half written: read again shortly.
 */
async function readStateFile(path: string, what: string): Promise<StateResource[]> {
  for (let attempt = 1; ; attempt++) {
    if (!existsSync(path)) return [];
    try {
      return stateFileResources(readFileSync(path, "utf8"), what);
    } catch (e) {
      if (attempt >= 5 || !(e instanceof WatchSourceError)) throw e;
      await sleep(100 * attempt);
    }
  }
}

/** The local backend's state file of a cdk.tf.json, when the stack keeps its state in one. */
function localStatePath(dir: string, config: Record<string, unknown> | undefined): string | undefined {
  const backend = (config?.terraform as { backend?: Record<string, unknown> } | undefined)?.backend;
  const local = backend?.local as { path?: unknown } | undefined;
  if (!backend || (Object.keys(backend).length > 0 && !local)) return undefined;
  return resolve(dir, typeof local?.path === "string" ? local.path : "terraform.tfstate");
}

/** A stack folder of cdktf.out (cdk.tf.json): its local state file read directly, else the engine's `show -json`. */
function cdktfStack(engine: EngineRunner, dir: string, label: string): StackSource {
  return {
    label,
    read: async () => {
      const config = readJson(join(dir, "cdk.tf.json"));
      const local = localStatePath(dir, config);
      const what = `stack ${label}`;
      const resources = local ? await readStateFile(local, what) : await show(engine, dir, what);
      return { resources, ...(config ? { config } : {}) };
    },
    close: () => {},
  };
}

/** A state file named on the command line, with the cdk.tf.json of the cdktf stack that writes it when beside it. */
function stateFileStack(path: string, label: string): StackSource {
  // cdktf keeps a local stack's state as terraform.<stack>.tfstate in the project folder
  const stack = /^terraform\.(.+)\.tfstate$/.exec(basename(path))?.[1];
  const configPath = stack ? join(dirname(path), "cdktf.out", "stacks", stack, "cdk.tf.json") : undefined;
  return {
    label,
    read: async () => {
      const config = configPath ? readJson(configPath) : undefined;
      return { resources: await readStateFile(path, `stack ${label}`), ...(config ? { config } : {}) };
    },
    close: () => {},
  };
}

/** The output folder a CDKTF project's cdktf.json names (default cdktf.out). */
function cdktfOutput(project: string): string {
  const output = readJson(join(project, "cdktf.json"))?.output;
  return resolve(project, typeof output === "string" && output !== "" ? output : "cdktf.out");
}

/** `postgres://user@host/db#schema`: the pg backend's connection string and schema (default terraform_remote_state). */
function pgStack(engine: EngineRunner, raw: string, label: string | undefined): StackSource {
  const hash = raw.indexOf("#");
  const connStr = hash >= 0 ? raw.slice(0, hash) : raw;
  const schema = hash >= 0 ? decodeURIComponent(raw.slice(hash + 1)) : "terraform_remote_state";
  let dir: string | undefined;
  let ready: Promise<void> | undefined;
  const name = label ?? schema;
  // The providers to install are the ones the state names, at the registry address it names them by (a Terraform-
  // written state says registry.terraform.io/…, an OpenTofu one may say registry.opentofu.org/…, and OpenTofu installs
  // only what the configuration requires): init the backend alone, pull the state, then require exactly those.
  const configure = (dir: string, providers: Record<string, { source: string }>) => {
    const config = {
      terraform: {
        ...(Object.keys(providers).length ? { required_providers: providers } : {}),
        // Read-only: the pg backend must not create the schema, table or index a watch would otherwise leave behind.
        backend: {
          pg: {
            conn_str: connStr,
            schema_name: schema,
            skip_schema_creation: true,
            skip_table_creation: true,
            skip_index_creation: true,
          },
        },
      },
    };
    writeFileSync(join(dir, "main.tf.json"), JSON.stringify(config), { mode: 0o600 });
  };
  const initIn = async (dir: string) => {
    const r = await exec(engine, ["init", "-input=false", "-no-color"], dir);
    if (r.code !== 0) {
      const line = r.err.split("\n").find((l) => /Error/.test(l)) ?? `exit ${r.code}`;
      throw new WatchSourceError(`stack ${name}: init of the pg backend failed: ${line.replace(/^[│╷╵ ]+/, "")}`);
    }
  };
  const init = async () => {
    dir = mkdtempSync(join(tmpdir(), "rackform-watch-pg-"));
    configure(dir, {});
    await initIn(dir);
    const pulled = await exec(engine, ["state", "pull"], dir);
    if (pulled.code !== 0) throw new WatchSourceError(`stack ${name}: state pull failed: exit ${pulled.code}`);
    const providers = stateProviders(pulled.out);
    if (Object.keys(providers).length === 0) return;
    configure(dir, providers);
    await initIn(dir);
  };
  return {
    label: name,
    read: async () => {
      ready ??= init();
      await ready;
      return { resources: await show(engine, dir as string, `stack ${name}`) };
    },
    close: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The providers a state document names (`provider["registry.terraform.io/rackform/rackform"]`), as required_providers
 * entries keyed by their type name.
 */
export function stateProviders(stateJson: string): Record<string, { source: string }> {
  const out: Record<string, { source: string }> = {};
  let doc: { resources?: { provider?: unknown }[] };
  try {
    doc = JSON.parse(stateJson) as typeof doc;
  } catch {
    return out;
  }
  for (const r of doc.resources ?? []) {
    const m = /provider\["([^"]+)"\]/.exec(String(r.provider ?? ""));
    if (!m) continue;
    const source = m[1];
    let local = source.split("/").pop() as string;
    for (let i = 2; out[local] && out[local].source !== source; i++) local = `${source.split("/").pop()}_${i}`;
    out[local] = { source };
  }
  return out;
}

/** `[LABEL=]SOURCE`: a label is a plain word before `=` (no path separator, not a URL). */
export function splitLabel(arg: string): { label?: string; source: string } {
  const m = /^([A-Za-z0-9_.-]+)=(.+)$/.exec(arg);
  return m && !m[1].includes("/") ? { label: m[1], source: m[2] } : { source: arg };
}

/** The stacks one command-line input names; throws a WatchSourceError naming the input and what it accepts. */
export function stackSources(arg: string, engine: EngineRunner): StackSource[] {
  const { label, source } = splitLabel(arg);
  if (/^postgres(ql)?:\/\//.test(source)) return [pgStack(engine, source, label)];
  const path = resolve(source);
  if (!existsSync(path)) {
    throw new WatchSourceError(
      `${source}: no such file or folder; give a cdktf.out folder, a working directory, a .tfstate file or postgres://…#schema`,
    );
  }
  if (statSync(path).isFile()) {
    const stack = /^terraform\.(.+)\.tfstate$/.exec(basename(path))?.[1];
    return [stateFileStack(path, label ?? stack ?? basename(path).replace(/\.tfstate$/, ""))];
  }
  if (existsSync(join(path, "cdktf.json"))) {
    const out = cdktfOutput(path);
    if (!existsSync(join(out, "stacks")))
      throw new WatchSourceError(`${source}: a CDKTF project without ${basename(out)}/stacks; run cdktf synth first`);
    return stackSources(label ? `${label}=${out}` : out, engine);
  }
  const stacks = join(path, "stacks");
  if (existsSync(stacks) && statSync(stacks).isDirectory()) {
    const names = readdirSync(stacks).filter((n) => existsSync(join(stacks, n, "cdk.tf.json")));
    if (names.length === 0) throw new WatchSourceError(`${source}: no stacks/*/cdk.tf.json; run cdktf synth first`);
    return names
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
      .map((n) => cdktfStack(engine, join(stacks, n), names.length === 1 && label ? label : n));
  }
  if (existsSync(join(path, "cdk.tf.json"))) return [cdktfStack(engine, path, label ?? basename(path))];
  return [
    {
      label: label ?? basename(path),
      read: async () => ({ resources: await show(engine, path, `stack ${label ?? basename(path)}`) }),
      close: () => {},
    },
  ];
}
