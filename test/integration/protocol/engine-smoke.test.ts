/**
 * Smoke test with the real engines: the echo provider, installed from a filesystem mirror, goes through
 * init → plan → apply → no-op plan → replace → destroy → import under unmodified Terraform and OpenTofu.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Engine, EngineWorkspace, terraformEngine, tofuEngine } from "../../support/protocol/engine-workspace.js";

const CONFIG = (input: string) => `
terraform {
  required_providers {
    echo = { source = "rackform/echo", version = "0.0.1" }
  }
}

provider "echo" {
  prefix = "x-"
}

resource "echo_thing" "a" {
  input = "${input}"
  size  = 0.1
  tags  = { rack = "r12" }
}

data "echo_data" "d" {
  input = echo_thing.a.id
}

output "id" { value = echo_thing.a.id }
output "out" { value = data.echo_data.d.output }
`;

const workspaces: EngineWorkspace[] = [];
afterEach(() => {
  for (const w of workspaces.splice(0)) w.dispose();
});

function expectOk(r: { code: number; stdout: string; stderr: string }, what: string) {
  expect(r.code, `${what} failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
}

async function lifecycle(engine: Engine) {
  const ws = new EngineWorkspace(engine);
  workspaces.push(ws);
  ws.writeConfig(CONFIG("n1"));

  expectOk(await ws.run("init", "-input=false"), "init");
  expect(ws.read(".terraform.lock.hcl")).toMatch(new RegExp(`provider "${engine.host}/rackform/echo"[^]*h1:`));

  const plan = await ws.run("plan", "-input=false", "-out=tf.plan");
  expectOk(plan, "plan");
  expect(plan.stdout).toContain("1 to add, 0 to change, 0 to destroy");
  expect(plan.stdout).toMatch(/id\s+= \(known after apply\)/);

  expectOk(await ws.run("apply", "-input=false", "tf.plan"), "apply");
  const outputs = JSON.parse((await ws.run("output", "-json")).stdout);
  expect(outputs.id.value).toBe("x-n1");
  expect(outputs.out.value).toBe("x-x-n1");
  // 0.1 travels as the decimal string "0.1", not the nearest double, so state and config agree exactly.
  expect(JSON.parse(ws.read("terraform.tfstate")).resources[1].instances[0].attributes).toEqual({
    id: "x-n1",
    input: "n1",
    size: 0.1,
    tags: { rack: "r12" },
  });

  const again = await ws.run("plan", "-input=false", "-detailed-exitcode");
  expect(again.code, `a second plan must find no changes:\n${again.stdout}${again.stderr}`).toBe(0);

  ws.writeConfig(CONFIG("n2"));
  const replace = await ws.run("apply", "-input=false", "-auto-approve");
  expectOk(replace, "apply with a changed input");
  expect(replace.stdout).toContain("# forces replacement");
  expect(replace.stdout).toContain("1 added, 0 changed, 1 destroyed");
  expect(JSON.parse((await ws.run("output", "-json")).stdout).id.value).toBe("x-n2");

  expectOk(await ws.run("destroy", "-input=false", "-auto-approve"), "destroy");
  expect(
    JSON.parse(ws.read("terraform.tfstate")).resources.filter((r: { mode: string }) => r.mode === "managed"),
  ).toEqual([]);

  const imported = await ws.run("import", "-input=false", "echo_thing.a", "echo-n9");
  expectOk(imported, "import");
  expect(imported.stdout).toContain("Import successful");

  // Every provider process the engine started has exited (Shutdown honoured, nothing orphaned).
  expect(ws.liveProviderPids()).toEqual([]);
}

describe("the echo provider under real engines", () => {
  it("works through init, plan, apply, replace, destroy and import under Terraform", async () => {
    await lifecycle(terraformEngine());
  });

  it("works through init, plan, apply, replace, destroy and import under OpenTofu", async () => {
    await lifecycle(tofuEngine());
  });
});
