/**
 * rackform_image: a golden image present where its backend needs it, verified by sha256 — a MAAS custom boot
 * resource uploaded (streamed, resumable) or an Ironic image URL checked. Deployments depend on it; its destroy is
 * refused while MAAS machines run it. Schema in image-schema.ts, handlers in image-ops.ts, their deps in
 * image-deps.ts.
 */
import { defineResource, type Resource } from "../../framework/index.js";
import { type ImageDeps, imageDeps } from "./image-deps.js";
import {
  createImage,
  deleteImage,
  importImage,
  planImage,
  readImage,
  updateImage,
  validateImage,
} from "./image-ops.js";
import { imageSchema } from "./image-schema.js";

/** The rackform_image resource; `deps` replaces the configured provider's (tests hand fakes). */
export function imageResource(deps: (providerData: unknown) => ImageDeps = imageDeps): Resource {
  return defineResource({
    typeName: "rackform_image",
    schema: imageSchema,
    deps,
    create: createImage,
    read: readImage,
    update: updateImage,
    delete: deleteImage,
    modifyPlan: planImage,
    validateConfig: validateImage,
    importState: importImage,
  });
}
