/**
 * Global setup: one PostgreSQL server for the whole run when an e2e project is selected (the fleet example keeps its
 * state there). Each test file opens a database of its own on it (test/support/postgres.ts `openDatabase`).
 */
import type { TestProject } from "vitest/node";
import { type PostgresServer, startPostgresServer } from "../support/postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    postgres: PostgresServer | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide("postgres", null);
  if (!project.vitest.projects.some((p) => p.name.startsWith("e2e-"))) return undefined;
  const server = await startPostgresServer();
  const { stop, ...info } = server;
  project.provide("postgres", info);
  return stop;
}
