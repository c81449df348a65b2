import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * A new folder under the system's temporary one, removed once the calling test file's tests are
 * done: a CI machine runs the suites again and again and keeps none of it. Call it at the top of
 * a test file (it registers an afterAll hook there).
 */
export function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
