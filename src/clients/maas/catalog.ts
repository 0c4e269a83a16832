/** MAAS objects beside machines that rackform manages: tags and boot resources. */
import { parseBootResource, parseTag } from "./parse.js";
import type { MaasTransport } from "./transport.js";
import type { MaasBootResource, MaasTag } from "./types.js";

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

  /** Deletes a boot resource (an operator's cleanup); an absent one counts as deleted. */
  async deleteBootResource(id: number): Promise<void> {
    await this.t.delete(`boot-resources/${id}/`);
  }

  /** Starts the import of the selected boot resources; MAAS answers in plain text, returned as is. */
  importBootResources(): Promise<string> {
    return this.t.postForText("boot-resources/", "import", {});
  }
}
