// The runner contract (docs/runners.md) as the example suites read it: where Assay is, the run
// to report into, the attempt, and which tests the build asked for.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const env = process.env;
export const INSTALL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The build's Assay, run key, token and attempt; a suite cannot report without them. */
export function contract() {
  for (const name of ["ASSAY_URL", "ASSAY_RUN_KEY", "ASSAY_TOKEN"]) {
    if (!env[name]) {
      console.error(`${name} is not set: run this suite from an Assay build (docs/runners.md).`);
      process.exit(2);
    }
  }
  return {
    url: env.ASSAY_URL.replace(/\/$/, ""),
    runKey: env.ASSAY_RUN_KEY,
    token: env.ASSAY_TOKEN,
    attempt: Number(env.ASSAY_ATTEMPT ?? "0"),
  };
}

/**
 * The tests TEST_TAG selects: test ids (TC123) or tags (@smoke); none given runs them all. A test
 * is { id, title, tags }.
 */
export function selectTests(tests, testTag = env.TEST_TAG ?? "") {
  const wanted = testTag
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (wanted.length === 0) return tests;
  return tests.filter((test) => wanted.some((w) => w === `TC${test.id}` || test.tags.includes(w)));
}

/** Uploads report files with Assay's CLI; ASSAY_URL, ASSAY_TOKEN and ASSAY_RUN_KEY come from env. */
export function uploadWithCli(files, options) {
  const cli = path.join(INSTALL_DIR, "apps/cli/dist/main.js");
  // Values go as --name=value, so none can be read as another option.
  const args = [
    cli,
    "upload",
    ...files,
    ...Object.entries(options)
      .filter(([, v]) => v)
      .map(([k, v]) => `--${k}=${v}`),
  ];
  execFileSync(process.execPath, args, { stdio: "inherit", cwd: INSTALL_DIR });
}

/** Times a step. */
export async function timed(work) {
  const start = Date.now();
  try {
    return { value: await work(), ms: Date.now() - start };
  } catch (error) {
    return { error, ms: Date.now() - start };
  }
}
