/**
 * rackform_machine's deps with an in-memory backend (test/support/fake-backend.ts) in place of MAAS or Ironic: for its
 * handlers called directly, or for a whole provider server whose rackform_machine uses it.
 */
import type { Provider } from "../../src/framework/index.js";
import { machineResource } from "../../src/provider/resources/machine.js";
import { type MachineDeps, machineDeps } from "../../src/provider/resources/machine-deps.js";
import type { FakeBackend } from "./fake-backend.js";

/** The configured provider's deps, with `fake` as every backend. */
export const depsWithFake =
  (fake: FakeBackend) =>
  (providerData: unknown): MachineDeps => ({ ...machineDeps(providerData), backend: () => fake });

/** `provider` with its rackform_machine on `fake` (the other resources as they are). */
export function withFakeBackend(provider: Provider, fake: FakeBackend): Provider {
  const resources = provider
    .resources()
    .map((r) => (r.typeName === "rackform_machine" ? machineResource(depsWithFake(fake)) : r));
  return { ...provider, resources: () => resources };
}
