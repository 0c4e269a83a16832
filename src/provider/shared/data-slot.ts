/** Where a resource or data source keeps the ProviderData that ConfigureProvider handed it. */
import type { ProviderData } from "../config/config.js";

/** A slot filled by `configure`; `get()` fails with a clear provider-bug message when used before configuration. */
export function providerDataSlot(typeName: string): {
  configure(req: { readonly providerData: unknown }): void;
  get(): ProviderData;
} {
  let data: ProviderData | undefined;
  return {
    configure(req) {
      data = req.providerData as ProviderData | undefined;
    },
    get() {
      if (!data) throw new Error(`${typeName} used before the provider was configured`);
      return data;
    },
  };
}
