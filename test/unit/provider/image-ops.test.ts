/**
 * rackform_image's handlers called directly with fake deps: an in-memory MAAS catalog (boot resources, chunked
 * uploads, the sha256 check at the last byte) and machine list, in-memory image sources, and the process's image
 * work. Create, read drift, update, delete (in use, teardown), plan and import, in milliseconds.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { RackformClientError } from "../../../src/clients/errors.js";
import type { ImageSourceInfo } from "../../../src/clients/images/source.js";
import { MAAS_STATUS, type MaasCatalog } from "../../../src/clients/maas/index.js";
import type { MaasBootResource, MaasMachine, MaasNewBootResource } from "../../../src/clients/maas/types.js";
import { UNKNOWN } from "../../../src/framework/index.js";
import type { ImageDeps } from "../../../src/provider/resources/image-deps.js";
import {
  createImage,
  deleteImage,
  importImage,
  planImage,
  readImage,
  updateImage,
  validateImage,
} from "../../../src/provider/resources/image-ops.js";
import type { ImageConfigModel, ImagePlan, ImageState } from "../../../src/provider/resources/image-schema.js";
import { ImageWork } from "../../../src/provider/shared/image-work.js";
import { diagnosticLines, typedRequest } from "../../support/typed-request.js";

const BYTES = new TextEncoder().encode("a golden image, small enough for a unit test");
const SHA = createHash("sha256").update(BYTES).digest("hex");
const URL_1 = "https://images.example.com/ubuntu-gpu-1.img";

interface Held {
  resource: MaasNewBootResource;
  held: Uint8Array[];
  complete: boolean;
}

/** MAAS's boot resources as the catalog sees them, with the sha256 check when the last byte arrives. */
class FakeCatalog {
  readonly resources = new Map<number, Held>();
  readonly calls: string[] = [];
  private next = 1;

  seed(r: MaasNewBootResource, complete = true): number {
    const id = this.next++;
    this.resources.set(id, { resource: r, held: complete ? [BYTES] : [], complete });
    return id;
  }

  async listBootResources(): Promise<MaasBootResource[]> {
    return [...this.resources].map(([id, h]) => ({
      id,
      type: "Uploaded",
      name: h.resource.name,
      architecture: h.resource.architecture,
      subarches: [],
    }));
  }

  async getBootResource(id: number): Promise<MaasBootResource> {
    const h = this.resources.get(id);
    if (!h) throw new RackformClientError("RACKFORM_ERR_MAAS_NOT_FOUND", `no boot resource ${id}`);
    const { name, architecture, filetype, sha256, size } = h.resource;
    const file = { filename: "root", filetype, sha256, size, complete: h.complete, uploadUri: `upload/${id}` };
    return { id, type: "Uploaded", name, architecture, subarches: [], complete: h.complete, file };
  }

  async createUploadedBootResource(r: MaasNewBootResource): Promise<MaasBootResource> {
    this.calls.push(`create ${r.name}`);
    return this.getBootResource(this.seed(r, false));
  }

  async uploadChunk(uri: string, bytes: Uint8Array): Promise<void> {
    const h = this.resources.get(Number(uri.split("/")[1]));
    if (!h) throw new Error(`no upload at ${uri}`);
    h.held.push(bytes);
    const all = Buffer.concat(h.held);
    if (all.length < h.resource.size) return;
    if (createHash("sha256").update(all).digest("hex") !== h.resource.sha256)
      throw new RackformClientError("RACKFORM_ERR_MAAS_CHECKSUM", "Saved content does not match given SHA256 value.");
    h.complete = true;
  }

  async version(): Promise<string> {
    return "3.5.0";
  }

  async deleteBootResource(id: number): Promise<void> {
    this.calls.push(`delete ${this.resources.get(id)?.resource.name}`);
    this.resources.delete(id);
  }
}

/** An image source holding BYTES, announcing `sha256` if given. */
function sourceOf(sha256?: string): ImageSourceInfo {
  return {
    size: BYTES.length,
    ...(sha256 ? { sha256 } : {}),
    async open(offset) {
      return (async function* () {
        yield BYTES.subarray(offset);
      })();
    },
  };
}

const machine = (hostname: string, distroSeries: string) =>
  ({ systemId: hostname, hostname, status: MAAS_STATUS.DEPLOYED, osystem: "custom", distroSeries }) as MaasMachine;

function fakes(o: { announced?: string; urlFails?: Error } = {}) {
  const catalog = new FakeCatalog();
  const running: MaasMachine[] = [];
  const work = new ImageWork();
  const tracked: string[] = [];
  const deps: ImageDeps = {
    maas: () => ({ catalog: catalog as unknown as MaasCatalog, machines: { all: async () => [...running] } }),
    urlSource: async () => {
      if (o.urlFails) throw o.urlFails;
      return sourceOf(o.announced);
    },
    fileSource: async () => sourceOf(),
    work: {
      track: (id, p) => {
        tracked.push(id);
        return work.track(id, p);
      },
      get teardownSeen() {
        return work.teardownSeen;
      },
    },
    now: () => 0,
    teardownPollMs: 0,
    teardownGraceMs: 0,
  };
  return { deps, catalog, running, work, tracked };
}

const req = () => typedRequest();
const lines = diagnosticLines;

const plan = (o: Partial<ImagePlan> = {}): ImagePlan => ({
  id: UNKNOWN,
  backend: "maas",
  name: "ubuntu-gpu",
  version: "1",
  sha256: SHA,
  url: URL_1,
  source_file: null,
  architecture: "amd64/generic",
  filetype: "tgz",
  backend_image: UNKNOWN,
  size_bytes: UNKNOWN,
  verified_sha256: UNKNOWN,
  timeouts: null,
  ...o,
});

const spec = (version: string, sha256 = SHA): MaasNewBootResource => ({
  name: `custom/ubuntu-gpu-${version}`,
  architecture: "amd64/generic",
  filetype: "tgz",
  sha256,
  size: BYTES.length,
});

async function created(f = fakes(), p: Partial<ImagePlan> = {}) {
  const r = req();
  const state = await createImage({ ...r, plan: plan(p) }, f.deps);
  expect(lines(r.diagnostics)).toEqual([]);
  if (!state) throw new Error("no state");
  return state;
}

describe("rackform_image create", () => {
  it("uploads a MAAS image from its url, verified by MAAS, as deployments of this process wait for it", async () => {
    const f = fakes();
    const state = await created(f);
    expect(state).toMatchObject({
      id: "maas:ubuntu-gpu/1",
      backend_image: "custom/ubuntu-gpu-1",
      verified_sha256: SHA,
      size_bytes: BYTES.length,
    });
    expect(f.catalog.calls).toEqual(["create custom/ubuntu-gpu-1"]);
    expect(f.tracked).toEqual(["maas:ubuntu-gpu/1"]);
  });

  it("finds an image MAAS already holds complete and uploads nothing", async () => {
    const f = fakes();
    f.catalog.seed(spec("1"));
    expect((await created(f)).verified_sha256).toBe(SHA);
    expect(f.catalog.calls).toEqual([]);
  });

  it("refuses a source announcing other bytes before anything is uploaded", async () => {
    const f = fakes({ announced: "b".repeat(64) });
    const r = req();
    expect(await createImage({ ...r, plan: plan() }, f.deps)).toBeUndefined();
    expect(lines(r.diagnostics)).toEqual(["error Image checksum does not match @ sha256"]);
    expect(f.catalog.resources.size).toBe(0);
  });

  it("reports MAAS's refusal at the last byte and deletes the incomplete boot resource", async () => {
    const f = fakes();
    const r = req();
    expect(await createImage({ ...r, plan: plan({ sha256: "c".repeat(64) }) }, f.deps)).toBeUndefined();
    expect(lines(r.diagnostics)).toEqual(["error Image checksum does not match @ sha256"]);
    expect(r.diagnostics.items[0].detail).toContain("MAAS refused custom/ubuntu-gpu-1 when its last byte arrived");
    expect(f.catalog.resources.size).toBe(0);
  });

  it("checks an Ironic image's url without asking MAAS", async () => {
    const f = fakes({ announced: SHA });
    f.deps.maas = () => {
      throw new Error("MAAS asked");
    };
    const state = await created(f, { backend: "ironic", url: "https://u:p@images.example.com/x.img" });
    expect(state).toMatchObject({
      id: "ironic:ubuntu-gpu/1",
      backend_image: "https://images.example.com/x.img",
      verified_sha256: SHA,
      size_bytes: BYTES.length,
    });
  });

  it("checks the config again at apply, before any backend call", async () => {
    const f = fakes();
    const r = req();
    expect(await createImage({ ...r, plan: plan({ url: null }) }, f.deps)).toBeUndefined();
    expect(lines(r.diagnostics)).toEqual(["error Where is the image? @ url"]);
    expect(f.tracked).toEqual([]);
  });
});

describe("rackform_image read", () => {
  it("notices a MAAS boot resource deleted by hand (verified_sha256 empties), and keeps one still there", async () => {
    const f = fakes();
    const state = await created(f);
    expect(await readImage({ ...req(), state }, f.deps)).toEqual(state);
    f.catalog.resources.clear();
    expect(await readImage({ ...req(), state }, f.deps)).toEqual({ ...state, verified_sha256: "", size_bytes: null });
  });

  it("after an import, takes the sha256 MAAS verified", async () => {
    const f = fakes();
    f.catalog.seed(spec("1"));
    const id = importImage({ ...req(), id: "maas:ubuntu-gpu/1" });
    const imported = { ...plan(), url: null, ...id, sha256: null } as unknown as ImageState;
    const got = await readImage({ ...req(), state: imported }, f.deps);
    expect(got).toMatchObject({ sha256: SHA, verified_sha256: SHA, backend_image: "custom/ubuntu-gpu-1" });
  });

  it("treats an Ironic url that stops answering, or announces other bytes, as drift", async () => {
    const state = await created(fakes(), { backend: "ironic" });
    const gone = fakes({ urlFails: new RackformClientError("RACKFORM_ERR_IMAGE_SOURCE", "HEAD answered 404") });
    expect(await readImage({ ...req(), state }, gone.deps)).toMatchObject({ verified_sha256: "", size_bytes: null });
    const other = fakes({ announced: "d".repeat(64) });
    expect(await readImage({ ...req(), state }, other.deps)).toMatchObject({ verified_sha256: "d".repeat(64) });
  });

  it("keeps the recorded state with a diagnostic when the check fails otherwise", async () => {
    const state = await created(fakes(), { backend: "ironic" });
    const f = fakes({ urlFails: new RackformClientError("RACKFORM_ERR_HTTP_BAD_BODY", "not an answer") });
    const r = req();
    expect(await readImage({ ...r, state }, f.deps)).toEqual(state);
    expect(r.diagnostics.items.map((d) => d.severity)).toEqual(["error"]);
  });
});

describe("rackform_image update", () => {
  it("uploads a new version and deletes the previous one when no machine runs it", async () => {
    const f = fakes();
    const state = await created(f);
    const got = await updateImage({ ...req(), plan: plan({ version: "2" }), state }, f.deps);
    expect(got?.backend_image).toBe("custom/ubuntu-gpu-2");
    expect(f.catalog.calls).toEqual([
      "create custom/ubuntu-gpu-1",
      "create custom/ubuntu-gpu-2",
      "delete custom/ubuntu-gpu-1",
    ]);
  });

  it("keeps the previous version while machines run it", async () => {
    const f = fakes();
    const state = await created(f);
    f.running.push(machine("n1", "ubuntu-gpu-1"));
    await updateImage({ ...req(), plan: plan({ version: "2" }), state }, f.deps);
    expect(f.catalog.calls.filter((c) => c.startsWith("delete"))).toEqual([]);
  });
});

describe("rackform_image delete", () => {
  it("deletes the MAAS boot resource nobody runs; an Ironic image has nothing to delete", async () => {
    const f = fakes();
    const state = await created(f);
    await deleteImage({ ...req(), state }, f.deps);
    expect(f.catalog.resources.size).toBe(0);
    await deleteImage({ ...req(), state: { ...state, backend: "ironic" } }, fakes().deps);
  });

  it("refuses while machines run it and no teardown is under way, naming them", async () => {
    const f = fakes();
    const state = await created(f);
    f.running.push(machine("n1", "ubuntu-gpu-1"), machine("n2", "ubuntu-gpu-1"), machine("n3", "other-1"));
    const r = req();
    await deleteImage({ ...r, state }, f.deps);
    expect(lines(r.diagnostics)).toEqual(["error Image in use: custom/ubuntu-gpu-1 @ "]);
    expect(r.diagnostics.items[0].detail).toContain(": n1, n2.");
    expect(f.catalog.resources.size).toBe(1);
  });

  it("waits for this process's teardown of the nodes running it, then deletes it", async () => {
    const f = fakes();
    const state = await created(f);
    f.running.push(machine("n1", "ubuntu-gpu-1"));
    f.work.tearingDown();
    const all = f.deps.maas().machines.all;
    let looks = 0;
    f.deps.maas = () => ({
      catalog: f.catalog as unknown as MaasCatalog,
      machines: {
        all: async (o) => {
          if (++looks === 2) f.running.length = 0;
          return all(o);
        },
      },
    });
    const r = req();
    await deleteImage({ ...r, state }, f.deps);
    expect(lines(r.diagnostics)).toEqual([]);
    expect(looks).toBe(2);
    expect(f.catalog.resources.size).toBe(0);
  });
});

describe("rackform_image plan, validation and import", () => {
  const config = (o: Partial<ImageConfigModel> = {}): ImageConfigModel => ({ ...plan(), ...o });
  const planOf = (p: ImageConfigModel, state: ImageState | null) =>
    planImage({ ...req(), config: p, plan: p, state, private: {} })?.plan;

  it("plans the id, the backend's name and the sha256 to verify; the size stays while the bytes do not change", async () => {
    const state = await created();
    expect(planOf(config(), state)).toMatchObject({
      id: "maas:ubuntu-gpu/1",
      backend_image: "custom/ubuntu-gpu-1",
      verified_sha256: SHA,
      size_bytes: BYTES.length,
    });
    expect(planOf(config({ version: "2" }), state)?.size_bytes).toBe(UNKNOWN);
    expect(planOf(config({ sha256: SHA.toUpperCase() }), null)?.verified_sha256).toBe(SHA);
    // Drift read by refresh (the boot resource gone) plans the upload again.
    expect(planOf(config(), { ...state, verified_sha256: "" })?.size_bytes).toBe(UNKNOWN);
  });

  it("leaves the plan alone while the image's identity is unknown, and on destroy", () => {
    expect(planOf(config({ version: UNKNOWN }), null)).toBeUndefined();
    expect(planImage({ ...req(), config: null, plan: null, state: null, private: {} })).toBeUndefined();
  });

  it("validates where the image comes from", () => {
    const r = req();
    validateImage({ ...r, config: config({ backend: "ironic", url: null, source_file: "/srv/x" }) });
    expect(lines(r.diagnostics)).toEqual([
      "error Ironic needs url @ url",
      "error source_file is for MAAS @ source_file",
    ]);
  });

  it("imports <backend>:<name>/<version> only", () => {
    expect(importImage({ ...req(), id: "maas:ubuntu-gpu/1 " })).toEqual({
      id: "maas:ubuntu-gpu/1",
      backend: "maas",
      name: "ubuntu-gpu",
      version: "1",
      architecture: "amd64/generic",
      filetype: "tgz",
    });
    const r = req();
    expect(importImage({ ...r, id: "ubuntu-gpu/1" })).toBeUndefined();
    expect(lines(r.diagnostics)).toEqual(["error Invalid import id for rackform_image @ "]);
  });
});
