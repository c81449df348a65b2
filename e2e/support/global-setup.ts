import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
// What it provides is declared beside its use (ProvidedContext in server.ts).
import type {} from "./server.js";

/** The e2e run's folder for the demo's data, removed when the run ends. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(tmpdir(), "assay-e2e-demo-"));
  // As root, the embedded PostgreSQL (run as the postgres user) must be able to enter it.
  await chmod(folder, 0o711);
  project.provide("demoTemplate", folder);
  return () => rm(folder, { recursive: true, force: true });
}
