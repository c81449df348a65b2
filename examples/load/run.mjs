// Load example: Locust against Assay's own server with the build's users, spawn rate and
// duration, then its CSV statistics and HTML report uploaded with `assay upload --format locust`
// into the run, with the build's parameters and when the test ran (Locust's CSV says neither).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { INSTALL_DIR, contract, env, uploadWithCli } from "../lib/contract.mjs";

const { url } = contract();
const dir = mkdtempSync(path.join(tmpdir(), "assay-load-example-"));
try {
  const locustfile = path.join(INSTALL_DIR, "examples/load/locustfile.py");
  console.log(`Locust: ${env.USERS} users, ${env.SPAWN_RATE}/s, ${env.RUN_TIME} against ${url}`);
  const started = new Date();
  // Each value is its own argument, in --name=value form, after the server checked its shape.
  execFileSync(
    "locust",
    [
      "-f",
      locustfile,
      "--headless",
      `--users=${env.USERS}`,
      `--spawn-rate=${env.SPAWN_RATE}`,
      `--run-time=${env.RUN_TIME}`,
      `--host=${url}`,
      `--csv=${path.join(dir, "stats")}`,
      `--html=${path.join(dir, "report.html")}`,
    ],
    { stdio: "inherit" },
  );
  const durationMs = Date.now() - started.getTime();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".csv") || f.endsWith(".html"))
    .map((f) => path.join(dir, f));
  uploadWithCli(files, {
    format: "locust",
    family: "load",
    name: env.TEST_RUN_NAME,
    env: env.ENV,
    branch: env.BRANCH,
    executor: env.EXECUTOR,
    // The build's parameters: the host it asked for (this suite targets Assay itself without one).
    host: env.HOST || url,
    "test-file": env.TEST_FILE,
    users: env.USERS,
    "run-time": env.RUN_TIME,
    "spawn-rate": env.SPAWN_RATE,
    "load-region": env.LOAD_REGION,
    "started-at": started.toISOString(),
    "duration-ms": String(durationMs),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
