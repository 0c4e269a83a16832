/** The process's files, stdin and streams as plan-summary's I/O. */
import { readFile, writeFile } from "node:fs/promises";
import type { PlanSummaryIo } from "./command.js";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Real I/O for the command line. */
export const processIo: PlanSummaryIo = {
  readFile: (path) => readFile(path, "utf8"),
  readStdin,
  writeFile: (path, text) => writeFile(path, text),
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};
