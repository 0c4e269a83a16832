/**
 * Contract: IronicClient against Debian's real Ironic 21.4 (fake-hardware, noauth), the run's one real Ironic started
 * by the global setup (test/setup/ironic.ts).
 * Fails, never skips, when Ironic cannot be started.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { IronicClient } from "../../../src/clients/ironic/index.js";
import { IronicBackend } from "../../../src/provider/backends/index.js";
import { ironicClientFlow } from "../../support/ironic-client-flow.js";
import { sharedRealIronic } from "../../support/shared-counterparts.js";

let URL = "";
let release = () => {};
const tag = randomBytes(3).toString("hex");
const mac = `52:54:00:${tag.slice(0, 2)}:${tag.slice(2, 4)}:${tag.slice(4, 6)}`;
const locked: string[] = [];
let client: IronicClient;

beforeAll(async () => {
  ({ url: URL, release } = await sharedRealIronic());
  client = new IronicClient({
    url: URL,
    auth: { type: "noauth" },
    lockRetry: { maxAttempts: 20, baseDelayMs: 200, maxDelayMs: 1_000 },
    onLocked: (i) => locked.push(i.message),
  });
}, 240_000);

afterAll(async () => {
  await client?.close();
  release();
});

ironicClientFlow({
  title: "IronicClient against Debian Ironic 21.4 (fake-hardware)",
  client: () => client,
  url: () => URL,
  prefix: "rf-contract",
  tag,
  mac,
  locked,
  // The fake vendor passthru second_method holds the node's exclusive lock for 2 s (lab conf: [fake] vendor_delay = 2),
  // and the lab's conductor tries a lock once, so Ironic answers 409 NodeLocked meanwhile.
  async holdLock(uuid) {
    const held = await fetch(`${URL}/v1/nodes/${uuid}/vendor_passthru?method=second_method`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-openstack-ironic-api-version": "1.82" },
      body: JSON.stringify({ bar: "lock" }),
    });
    expect(held.status).toBe(202);
  },
  poll: { state: { pollMs: 100, timeoutMs: 60_000 }, quick: { pollMs: 100, timeoutMs: 30_000 } },
  afterEnroll() {
    // Issue #14: rackform_machine enrolls a redfish node with the provider's IPA kernel/ramdisk in driver_info, so provide's
    // cleaning can boot the ramdisk. Real Ironic takes the keys at create, and its redfish-virtual-media boot (this
    // ironic.conf has no [conductor]deploy_kernel) reports exactly them missing on a node enrolled without.
    it("takes the IPA kernel/ramdisk in driver_info at enroll (rackform's backend), and names them missing without", async () => {
      const images = { kernel: "http://images.example/ipa.kernel", ramdisk: "http://images.example/ipa.initramfs" };
      const spec = (name: string) => ({
        name,
        macs: [],
        bmcAddress: "https://192.0.2.10",
        bmcUsername: "admin",
        bmcPassword: "not-a-real-password",
        bmcInsecure: true,
        architecture: "amd64/generic",
      });
      const withImages = await new IronicBackend(client, { deployImages: images }).enroll(spec(`rf-ipa-${tag}`));
      const without = await new IronicBackend(client).enroll(spec(`rf-noipa-${tag}`));
      try {
        expect((await client.getNode(withImages)).driverInfo).toMatchObject({
          deploy_kernel: images.kernel,
          deploy_ramdisk: images.ramdisk,
        });
        expect((await client.validate(withImages)).boot.reason ?? "").not.toContain("deploy_kernel");
        expect((await client.validate(without)).boot).toMatchObject({
          result: false,
          reason:
            "Error validating Redfish virtual media. Some parameters were missing in node's driver_info. Missing are: ['deploy_kernel', 'deploy_ramdisk']",
        });
      } finally {
        await client.deleteNode(withImages);
        await client.deleteNode(without);
      }
    });
  },
});
