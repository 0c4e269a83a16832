/**
 * What rackform_deployment's handlers use from the configured provider, as one interface (tests hand fakes), and its
 * builder from ProviderData.
 */
import type { Context, Diagnostics } from "../../framework/index.js";
import { type Backend, type BackendName, backendFor } from "../backends/index.js";
import type { DisruptionBudget } from "../budget/disruption-budget.js";
import type { ProviderData } from "../config/config.js";
import type { HostSightings } from "../shared/host-sightings.js";
import type { ImageWork } from "../shared/image-work.js";
import type { RolloutHandovers } from "../shared/rollout-handover.js";
import { cachedImageUrlProbe, UPLOAD_START_GRACE_MS } from "./deployment-image.js";
import type { DeploymentImage } from "./deployment-schema.js";
import { imageUrlAnswersFor } from "./image-url.js";

/** The apply-time check of image.url: the image block and the backend's label for the diagnostic. */
export interface ImageUrlCheck {
  readonly context: Context;
  readonly diagnostics: Diagnostics;
  readonly image: Pick<DeploymentImage, "url" | "check_url">;
  readonly backendLabel: string;
}

/** What rackform_deployment's handlers use. */
export interface DeploymentDeps {
  /** The backend a machine id names; throws when the provider does not configure it. */
  backend(name: BackendName): Backend;
  /**
   * Before a deploy from a URL: true when image.url answers or is not to be checked; else a diagnostic on image.url
   * and false.
   */
  imageUrlAnswers(check: ImageUrlCheck): Promise<boolean>;
  /** At read: what is wrong with an image URL (undefined when it answers), asked once per URL for a while. */
  imageUrlProblem(url: string): Promise<string | undefined>;
  /** Image uploads and node teardowns under way in this process (image-work.ts). */
  readonly images: Pick<ImageWork, "upload" | "tearingDown">;
  /** Host power this process read from BMCs (host-sightings.ts). */
  readonly sightings: Pick<HostSightings, "seenOn">;
  /** The cluster members' disruption budget: a node that fails here gives its drain slot back. */
  readonly budget: Pick<DisruptionBudget, "release" | "releaseFailed">;
  /** Where a rolling deployment offers its reimage to the node's cluster member (rollout-handover.ts). */
  readonly rollouts: Pick<RolloutHandovers, "offerReimage" | "offerRemedy">;
  /** How long a deploy whose image its backend lacks waits for an upload of it to begin. */
  readonly imageUploadGraceMs: number;
}

/** The deps of the configured provider. */
export function deploymentDeps(providerData: unknown): DeploymentDeps {
  const data = providerData as ProviderData;
  return {
    backend: (name) => backendFor(data, name),
    imageUrlAnswers: (c) => imageUrlAnswersFor({ ...c, core: data.core }),
    imageUrlProblem: cachedImageUrlProbe(data.core),
    images: data.images,
    sightings: data.sightings,
    budget: data.budget,
    rollouts: data.rollouts,
    imageUploadGraceMs: data.timings.imageUploadGraceMs ?? UPLOAD_START_GRACE_MS,
  };
}
