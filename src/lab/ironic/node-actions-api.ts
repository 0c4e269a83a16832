/** /v1/nodes/{id}/states/provision, /states/power, /states, /maintenance, /validate, /ports. */

import type { ConductorDeployDefaults } from "./conductor-types.js";
import { type Ctx, objectBody, type Reply } from "./context.js";
import { fault, invalid, invalidState, nodeLocked, pyRepr } from "./errors.js";
import { nodeOr404 } from "./nodes-api.js";
import { deployImages } from "./ramdisk.js";
import { renderPort, renderStates } from "./render.js";
import { isActionable, POWER_TARGETS, S, VERBS } from "./states.js";
import { checkSteps, type StepRequest } from "./steps.js";
import type { NodeRecord } from "./store.js";

const PROVISION_ARGS = new Set([
  "target",
  "configdrive",
  "clean_steps",
  "deploy_steps",
  "rescue_password",
  "disable_ramdisk",
]);
const SERVICE_MINOR = 87;

/** Per-interface validation (GET …/validate), with the reasons Ironic's redfish interfaces give. */
export function validateNode(
  n: NodeRecord,
  defaults: ConductorDeployDefaults = {},
): Record<string, { result: boolean; reason?: string }> {
  const ok = { result: true };
  if (n.driver !== "redfish") {
    const names = [
      "boot",
      "deploy",
      "management",
      "network",
      "power",
      "bios",
      "console",
      "inspect",
      "raid",
      "rescue",
      "storage",
    ];
    return Object.fromEntries(names.map((k) => [k, ok]));
  }
  const missingBmc = ["redfish_address"].filter((k) => !n.driver_info[k]);
  const bmc = missingBmc.length
    ? {
        result: false,
        reason: `Missing the following Redfish properties in node ${n.uuid} driver_info: ${missingBmc.join(", ")}`,
      }
    : ok;
  const images = deployImages(n, defaults);
  const missingBoot = ["deploy_kernel", "deploy_ramdisk"].filter((k) => !images[k]);
  const boot = missingBoot.length
    ? {
        result: false,
        reason: `Error validating Redfish virtual media. Some parameters were missing in node's driver_info. Missing are: ${pyRepr(missingBoot)}`,
      }
    : ok;
  const unsupported = (what: string) => ({
    result: false,
    reason: `Driver redfish does not support ${what} (disabled or not implemented).`,
  });
  return {
    boot,
    deploy: boot,
    management: bmc,
    network: ok,
    power: bmc,
    bios: bmc,
    console: unsupported("console"),
    inspect: bmc,
    raid: bmc,
    rescue: unsupported("rescue"),
    storage: ok,
  };
}

/** GET /v1/nodes/{id}/validate */
export function validate(ctx: Ctx): Reply {
  return { status: 200, body: validateNode(nodeOr404(ctx), ctx.conductor.deployDefaults) };
}

/** GET /v1/nodes/{id}/states */
export function states(ctx: Ctx): Reply {
  return { status: 200, body: renderStates(nodeOr404(ctx)) };
}

/** GET /v1/nodes/{id}/ports */
export function nodePorts(ctx: Ctx): Reply {
  const n = nodeOr404(ctx);
  const detail = ["true", "1"].includes(ctx.query.get("detail") ?? "");
  return {
    status: 200,
    body: { ports: ctx.store.portsOf(n.uuid).map((p) => renderPort(p, ctx.base, detail ? "full" : "list")) },
  };
}

function steps(body: Record<string, unknown>, field: string): StepRequest[] {
  const problem = checkSteps(field, body[field]);
  if (problem) throw invalid(problem);
  return body[field] as StepRequest[];
}

const provisionAccepted = (ctx: Ctx, n: NodeRecord): Reply => ({
  status: 202,
  headers: { Location: `${ctx.base}/v1/nodes/${n.uuid}/states` },
});

/** Deploy after the deploy interface validated the image (a HEAD of image_source), as do_node_deploy does. */
async function validatedDeploy(ctx: Ctx, n: NodeRecord, body: Record<string, unknown>): Promise<Reply> {
  const from = n.provision_state;
  const bad = await ctx.conductor.validateImage(n);
  if (bad) {
    throw invalid(`RPC do_node_deploy failed to validate deploy or power info for node ${n.uuid}. Error: ${bad}`);
  }
  // The node may have been taken, or moved on, while the image was checked.
  if (n.reservation) throw nodeLocked(n.uuid, n.reservation);
  if (n.provision_state !== from) throw invalidState(String(body.target), n.uuid, n.provision_state);
  // Ironic keeps the config drive in instance_info (masked in responses) until tear-down clears it.
  if (body.configdrive !== undefined && body.configdrive !== null) {
    n.instance_info = { ...n.instance_info, configdrive: body.configdrive };
  }
  ctx.conductor.deploy(n);
  return provisionAccepted(ctx, n);
}

/** PUT /v1/nodes/{id}/states/provision */
export function setProvisionState(ctx: Ctx): Reply | Promise<Reply> {
  const n = nodeOr404(ctx);
  const body = objectBody(ctx);
  const allowedArgs = new Set(PROVISION_ARGS);
  if (ctx.version.minor >= SERVICE_MINOR) allowedArgs.add("service_steps");
  const unexpected = Object.keys(body).filter((k) => !allowedArgs.has(k));
  if (unexpected.length) throw invalid(`Unexpected arguments: ${unexpected.join(", ")}`);
  const target = String(body.target ?? "");
  if (body.clean_steps !== undefined && target !== "clean") {
    throw invalid(`"clean_steps" is only valid when setting target provision state to clean`);
  }
  if (target === "clean" && body.clean_steps === undefined) {
    throw invalid(`"clean_steps" is required when setting target provision state to clean`);
  }
  if (target === "service" && ctx.version.minor >= SERVICE_MINOR && body.service_steps === undefined) {
    throw invalid(`"service_steps" is required when setting target provision state to service`);
  }
  if ((target === "active" || target === "rebuild") && n.maintenance) {
    throw invalid(`The provisioning operation can't be performed on node ${n.uuid} because it's in maintenance mode.`);
  }
  const serviceKnown = target !== "service" || ctx.version.minor >= SERVICE_MINOR;
  const event = VERBS[target];
  if (!event || !serviceKnown || !isActionable(n.provision_state, event)) {
    if (n.reservation) throw nodeLocked(n.uuid, n.reservation);
    throw invalidState(target, n.uuid, n.provision_state);
  }
  if (n.reservation) throw nodeLocked(n.uuid, n.reservation);
  const c = ctx.conductor;
  switch (event) {
    case "manage":
      c.manage(n);
      break;
    case "inspect":
      c.inspect(n);
      break;
    case "provide":
      c.provide(n);
      break;
    case "clean":
      c.clean(n, steps(body, "clean_steps"));
      break;
    case "service":
      c.service(n, steps(body, "service_steps"));
      break;
    case "abort":
      c.abort(n);
      break;
    case "deploy":
    case "rebuild": {
      const v = validateNode(n, ctx.conductor.deployDefaults);
      const bad = v.deploy.result ? (v.power.result ? undefined : v.power) : v.deploy;
      if (bad)
        throw invalid(
          `RPC do_node_deploy failed to validate deploy or power info for node ${n.uuid}. Error: ${bad.reason}`,
        );
      if (n.driver === "redfish" && !n.instance_info.image_source) {
        throw invalid(
          `RPC do_node_deploy failed to validate deploy or power info for node ${n.uuid}. Error: Some parameters were missing in node's instance_info. Missing are: ['image_source']`,
        );
      }
      return validatedDeploy(ctx, n, body);
    }
    case "delete":
      c.undeploy(n);
      break;
    default:
      throw invalidState(target, n.uuid, n.provision_state);
  }
  return { status: 202, headers: { Location: `${ctx.base}/v1/nodes/${n.uuid}/states` } };
}

/** PUT /v1/nodes/{id}/states/power */
export function setPowerState(ctx: Ctx): Reply {
  const n = nodeOr404(ctx);
  const body = objectBody(ctx);
  const target = String(body.target ?? "");
  if (!POWER_TARGETS.includes(target)) {
    throw invalid(
      `Invalid input for field/attribute target. Value: '${target}'. Value should be one of: ${POWER_TARGETS.join(", ")}`,
    );
  }
  if (n.reservation) throw nodeLocked(n.uuid, n.reservation);
  if (n.provision_state === S.ENROLL && n.driver === "redfish" && !n.driver_info.redfish_address) {
    throw fault(400, validateNode(n, ctx.conductor.deployDefaults).power.reason ?? "power interface is not valid");
  }
  ctx.conductor.power(n, target);
  return { status: 202, headers: { Location: `${ctx.base}/v1/nodes/${n.uuid}/states` } };
}

/** PUT (on, with optional reason) and DELETE (off) /v1/nodes/{id}/maintenance */
export function setMaintenance(ctx: Ctx, on: boolean): Reply {
  const n = nodeOr404(ctx);
  const reason = on && ctx.rawBody.trim() ? objectBody(ctx).reason : undefined;
  if (n.reservation) throw nodeLocked(n.uuid, n.reservation);
  n.maintenance = on;
  n.maintenance_reason = on ? ((reason as string | undefined) ?? null) : null;
  if (!on) n.fault = null;
  ctx.store.touch(n);
  return { status: 202 };
}
