/** Data source rfkitchen_echo: computes values from its input and from provider data. */
import { attr, type DataSource, getList, getString, type Schema } from "../../../src/framework/index.js";
import type { KitchenData } from "./store.js";

/** Schema of rfkitchen_echo. */
export const echoSchema: Schema = {
  attributes: {
    value: attr.string({ required: true }),
    tags: attr.list("string", { optional: true }),
    upper: attr.string({ computed: true }),
    length: attr.number({ computed: true }),
    tag_count: attr.number({ computed: true }),
    provider_label: attr.string({ computed: true }),
  },
};

/** A fresh rfkitchen_echo data source. */
export function echoDataSource(): DataSource {
  let data: KitchenData | undefined;
  return {
    typeName: "rfkitchen_echo",
    schema: echoSchema,
    configure(req) {
      data = req.providerData as KitchenData | undefined;
    },
    read(req, resp) {
      const value = getString(req.config, "value") ?? "";
      resp.state = {
        ...req.config,
        upper: value.toUpperCase(),
        length: [...value].length,
        tag_count: getList(req.config, "tags").length,
        provider_label: data?.label ?? "unconfigured",
      };
    },
  };
}
