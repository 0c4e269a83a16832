/** MAAS objects beside machines that rackform manages: tags and boot resources. */
import { parseBootResource, parseTag } from "./parse.js";
import type { MaasTransport } from "./transport.js";
import type { MaasBootResource, MaasNewBootResource, MaasTag } from "./types.js";

/** Tags and boot resources of one region. */
export class MaasCatalog {
  constructor(
    private readonly t: MaasTransport,
    private readonly onMachinesChanged: () => void,
  ) {}

  /** Every tag. */
  async listTags(signal?: AbortSignal): Promise<MaasTag[]> {
    const j = await this.t.get("tags/", {}, signal);
    return (Array.isArray(j) ? j : []).map(parseTag);
  }

  /** One tag (RACKFORM_ERR_MAAS_NOT_FOUND when absent). */
  async getTag(name: string, signal?: AbortSignal): Promise<MaasTag> {
    return parseTag(await this.t.get(`tags/${encodeURIComponent(name)}/`, {}, signal));
  }

  /** Creates a tag; a `definition` (XPath) makes MAAS tag matching machines automatically. */
  async createTag(tag: { readonly name: string } & Partial<Omit<MaasTag, "name">>): Promise<MaasTag> {
    const form = { name: tag.name, comment: tag.comment, definition: tag.definition, kernel_opts: tag.kernelOpts };
    return parseTag(await this.t.post("tags/", undefined, form));
  }

  /** Deletes a tag; an absent tag counts as deleted. */
  async deleteTag(name: string): Promise<void> {
    await this.t.delete(`tags/${encodeURIComponent(name)}/`);
    this.onMachinesChanged();
  }

  /** Adds and removes machines (by system_id) from a manual tag. */
  async tagMachines(
    name: string,
    change: { readonly add?: readonly string[]; readonly remove?: readonly string[] },
  ): Promise<void> {
    try {
      await this.t.post(`tags/${encodeURIComponent(name)}/`, "update_nodes", {
        add: change.add,
        remove: change.remove,
      });
    } finally {
      this.onMachinesChanged();
    }
  }

  /** Every boot resource (images MAAS can deploy). */
  async listBootResources(signal?: AbortSignal): Promise<MaasBootResource[]> {
    const j = await this.t.get("boot-resources/", {}, signal);
    return (Array.isArray(j) ? j : []).map(parseBootResource);
  }

  /** One boot resource with its sets (so `complete` is known). */
  async getBootResource(id: number, signal?: AbortSignal): Promise<MaasBootResource> {
    return parseBootResource(await this.t.get(`boot-resources/${id}/`, {}, signal));
  }

  /**
   * Creates an uploaded boot resource without content (BootResourceNoContentForm: name, title, architecture,
   * filetype, sha256, size); its file is then incomplete, with an upload_uri for `uploadChunk`.
   */
  async createUploadedBootResource(r: MaasNewBootResource, signal?: AbortSignal): Promise<MaasBootResource> {
    const form = {
      name: r.name,
      title: r.title,
      architecture: r.architecture,
      filetype: r.filetype,
      sha256: r.sha256,
      size: String(r.size),
    };
    return parseBootResource(await this.t.post("boot-resources/", undefined, form, signal));
  }

  /**
   * Sends one piece of an uploaded file to its upload_uri (PUT, octet-stream). MAAS appends it and, when the last
   * byte arrives, checks the sha256 given at create (400 "Saved content does not match given SHA256 value.":
   * RACKFORM_ERR_MAAS_CHECKSUM).
   */
  async uploadChunk(uploadUri: string, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
    await this.t.putBytes(uploadUri, bytes, signal);
  }

  /** The region's version string (version/'s "version", e.g. "3.5.0"). */
  async version(signal?: AbortSignal): Promise<string> {
    const j = await this.t.get("version/", {}, signal);
    return typeof j === "object" && j !== null && typeof (j as { version?: unknown }).version === "string"
      ? (j as { version: string }).version
      : "";
  }

  /** Deletes a boot resource (an operator's cleanup); an absent one counts as deleted. */
  async deleteBootResource(id: number): Promise<void> {
    await this.t.delete(`boot-resources/${id}/`);
  }

  /** Starts the import of the selected boot resources; MAAS answers in plain text, returned as is. */
  importBootResources(): Promise<string> {
    return this.t.postForText("boot-resources/", "import", {});
  }
}
