import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadFirstScreen } from "./first-screen.js";

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A web build folder whose server entry is `entry` (dist-ssr/first-screen.js). */
async function build(entry: string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "assay-first-screen-"));
  folders.push(root);
  await mkdir(path.join(root, "dist"));
  await mkdir(path.join(root, "dist-ssr"));
  await writeFile(path.join(root, "dist-ssr", "first-screen.js"), entry);
  return path.join(root, "dist");
}

const logger = () =>
  ({ warn: vi.fn() }) as unknown as FastifyBaseLogger & { warn: ReturnType<typeof vi.fn> };

describe("loading the web app's first screen", () => {
  it("loads a whole build's server entry", async () => {
    const log = logger();
    const module = await loadFirstScreen(
      await build("export const firstScreenPaths = () => null;\n"),
      log,
    );
    expect(module?.firstScreenPaths("/")).toBeNull();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it("starts without it, and says so, while a build is rewriting its chunks", async () => {
    const log = logger();
    const dist = await build('import "./assets/resolveComponentProps-gone.js";\n');
    expect(await loadFirstScreen(dist, log)).toBeUndefined();
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ file: expect.stringContaining("first-screen.js") }),
      "web app's first screen not loaded: pages render alone",
    );
  });
});
