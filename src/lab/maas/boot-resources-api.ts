/** MAAS handlers for boot-resources/: synced Ubuntu images and uploaded custom images. */
import { createHash } from "node:crypto";
import { badRequest, invalid, MaasHttpError, notFound } from "./http-io.js";
import { parseArchitecture } from "./machine-forms.js";
import type { RegionDeps } from "./region-deps.js";
import { renderBootResource } from "./render.js";
import type { ActionContext, Handler } from "./router.js";
import type { BootResourceRecord } from "./store.js";

function createBootResource(deps: RegionDeps, ctx: ActionContext): BootResourceRecord {
  const p = ctx.params;
  const name = p.get("name");
  const errors: Record<string, string[]> = {};
  if (!name) errors.name = ["This field is required."];
  if (!p.get("architecture")) errors.architecture = ["This field is required."];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const architecture = parseArchitecture(p.get("architecture"));
  const content = p.files.get("content") ?? null;
  const sha256 = (p.get("sha256") ?? "").toLowerCase();
  const size = p.get("size") === undefined ? content?.length : Number(p.get("size"));
  if (content) {
    const actual = createHash("sha256").update(content).digest("hex");
    if (sha256 && sha256 !== actual)
      throw invalid({ content: ["SHA256 of the uploaded content does not match the sha256 field."] });
    if (size !== undefined && size !== content.length)
      throw invalid({ content: ["Size of the uploaded content does not match the size field."] });
  } else if (!sha256 || size === undefined || !Number.isSafeInteger(size) || size <= 0) {
    throw invalid({ content: ["Either content, or sha256 and size must be provided."] });
  }
  // MAAS keeps one resource per name and architecture; a new upload under the same name takes its place.
  const existing = [...deps.store.bootResources.values()].find(
    (b) => b.name === name && b.architecture === architecture,
  );
  if (existing) deps.store.bootResources.delete(existing.id);
  const d = new Date(deps.clock.now());
  const b: BootResourceRecord = {
    id: deps.store.nextId("bootresource"),
    type: "Uploaded",
    name: name!,
    architecture,
    title: p.get("title") ?? "",
    subarches: architecture.split("/")[1],
    baseImage: p.get("base_image") ?? "",
    version: `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}${String(d.getUTCDate()).padStart(2, "0")}`,
    files: [
      {
        filename: "root-tgz",
        filetype: p.get("filetype") ?? "tgz",
        sha256: sha256 || createHash("sha256").update(content!).digest("hex"),
        size: size ?? 0,
        complete: content !== null,
      },
    ],
    held: content?.length ?? 0,
    hasher: content ? null : createHash("sha256"),
  };
  deps.store.bootResources.set(b.id, b);
  return b;
}

/**
 * PUT boot-resources/{id}/upload/{file_id}/: one chunk of an uploaded image's file, as MAAS's
 * BootResourceFileUploadHandler takes it: appended to what the region holds,
 * "Too much data received." past the size given at create. When the last byte arrives the content
 * must hash to the sha256 given at create, else 400 "Saved content does not match given SHA256 value."; the file is
 * then complete but invalid, so a further chunk is "Cannot upload to a complete file." (MAAS 3.x) and the file is
 * never usable: delete the resource and upload again. Only a running hash is kept, never the bytes.
 */
function uploadChunk(deps: RegionDeps, ctx: ActionContext): { text: string } {
  const b = deps.store.bootResources.get(Number(ctx.path.id));
  const fileIndex = Number(ctx.path.file_id) - 1;
  const f = b?.files[fileIndex];
  if (!b || !f) throw notFound("BootResourceFile");
  const data = ctx.raw ?? Buffer.alloc(0);
  if (data.length === 0) throw badRequest("Missing data.");
  if (b.type !== "Uploaded") throw new MaasHttpError(403, `Cannot upload to a resource of type: ${b.type}.`);
  if (f.complete || b.held >= f.size) throw badRequest("Cannot upload to a complete file.");
  if (b.held + data.length > f.size) throw badRequest("Too much data received.");
  b.hasher ??= createHash("sha256");
  b.hasher.update(data);
  b.held += data.length;
  if (b.held < f.size) return { text: "OK" };
  if (b.hasher.copy().digest("hex") !== f.sha256) throw badRequest("Saved content does not match given SHA256 value.");
  f.complete = true;
  b.hasher = null;
  return { text: "OK" };
}

/** Boot-resource handlers, bound to a region. */
export function bootResourceHandlers(deps: RegionDeps): Handler[] {
  const { store } = deps;
  return [
    {
      name: "BootResourcesHandler",
      path: "boot-resources/",
      doc: "Manage the boot resources.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "List boot resources (filter: type).",
          run: (ctx) => {
            const type = ctx.params.get("type")?.toLowerCase();
            const list = [...store.bootResources.values()].filter(
              (b) => !type || type === "all" || b.type.toLowerCase() === type,
            );
            return { json: list.map((b) => renderBootResource(b, false)) };
          },
        },
        {
          name: "create",
          method: "POST",
          op: null,
          doc: "Upload a new boot resource.",
          run: (ctx) => ({ status: 201, json: renderBootResource(createBootResource(deps, ctx), true) }),
        },
        {
          name: "is_importing",
          method: "GET",
          op: "is_importing",
          doc: "Whether images are importing.",
          run: () => ({ json: false }),
        },
      ],
    },
    {
      name: "BootResourceFileUploadHandler",
      path: "boot-resources/{id}/upload/{file_id}/",
      doc: "Upload a boot resource file.",
      actions: [
        {
          name: "update",
          method: "PUT",
          op: null,
          doc: "Upload piece of boot resource file.",
          run: (ctx) => uploadChunk(deps, ctx),
        },
      ],
    },
    {
      name: "BootResourceHandler",
      path: "boot-resources/{id}/",
      doc: "Manage a boot resource.",
      actions: [
        {
          name: "read",
          method: "GET",
          op: null,
          doc: "Read a boot resource.",
          run: (ctx) => {
            const b = store.bootResources.get(Number(ctx.path.id));
            if (!b) throw notFound("BootResource");
            return { json: renderBootResource(b, true) };
          },
        },
        {
          name: "delete",
          method: "DELETE",
          op: null,
          doc: "Delete a boot resource.",
          run: (ctx) => {
            if (!store.bootResources.delete(Number(ctx.path.id))) throw notFound("BootResource");
            return { status: 204 };
          },
        },
      ],
    },
  ];
}
