import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { restoreEmptiedState } from "../../chaos/state-loss.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "rf-state-loss-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const state = () => readFile(join(dir, "terraform.tfstate"), "utf8");

it("restores a state file a kill left empty from the backup the engine wrote when that apply began", async () => {
  await writeFile(join(dir, "terraform.tfstate"), "");
  await writeFile(join(dir, "terraform.tfstate.backup"), '{"serial":7}');
  expect(await restoreEmptiedState(dir)).toBe(true);
  expect(await state()).toBe('{"serial":7}');
});

it("leaves a written state alone, and an empty one without a backup", async () => {
  await writeFile(join(dir, "terraform.tfstate"), '{"serial":8}');
  await writeFile(join(dir, "terraform.tfstate.backup"), '{"serial":7}');
  expect(await restoreEmptiedState(dir)).toBe(false);
  expect(await state()).toBe('{"serial":8}');
  await writeFile(join(dir, "terraform.tfstate"), "");
  await rm(join(dir, "terraform.tfstate.backup"));
  expect(await restoreEmptiedState(dir)).toBe(false);
  expect(await state()).toBe("");
});
