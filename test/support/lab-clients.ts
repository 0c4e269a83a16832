/**
 * Clients of a lab's backends as an operator's tools would be (the Ironic CLI, kubectl), each closed after use, and
 * the views e2e tests compare before and after a change.
 */
import { IronicClient } from "../../src/clients/ironic/index.js";
import { KubernetesClient } from "../../src/clients/kubernetes/index.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";

/** A client of the lab's Ironic, closed after `f`. */
export async function withIronic<T>(lab: Lab, f: (c: IronicClient) => Promise<T>): Promise<T> {
  const ironic = lab.info.ironic;
  if (!ironic) throw new Error("the lab started without Ironic");
  const c = new IronicClient({ url: ironic.url });
  try {
    return await f(c);
  } finally {
    await c.close();
  }
}

/** A client of the lab's Kubernetes API, closed after `f`. */
export async function withKube<T>(lab: Lab, f: (c: KubernetesClient) => Promise<T>): Promise<T> {
  const k = lab.info.kubernetes;
  if (!k) throw new Error("the lab started without Kubernetes");
  const c = new KubernetesClient({ url: k.url, token: k.token });
  try {
    return await f(c);
  } finally {
    await c.close();
  }
}

/** Every Kubernetes node as name → whether it is Ready and schedulable. */
export function kubeView(lab: Lab): Promise<Map<string, boolean>> {
  return withKube(lab, async (c) => new Map((await c.listNodes()).map((n) => [n.name, n.ready && !n.unschedulable])));
}

/** Every MAAS machine as hostname → "status/system id". */
export async function maasView(lab: Lab): Promise<Map<string, string>> {
  const maas = lab.info.maas;
  if (!maas) throw new Error("the lab started without MAAS");
  const c = new MaasClient({ url: maas.url, apiKey: maas.apiKey });
  try {
    return new Map((await c.listMachines()).map((m) => [m.hostname, `${m.statusName}/${m.systemId}`]));
  } finally {
    await c.close();
  }
}
