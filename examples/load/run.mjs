// Load example: Locust against Assay's own server with the build's users, spawn rate and
// duration, then its CSV statistics uploaded with `assay upload --format locust` into the run.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { INSTALL_DIR, contract, env, uploadWithCli } from "../lib/contract.mjs";

const { url } = contract();
const dir = mkdtempSync(path.join(tmpdir(), "assay-load-example-"));
const locustfile = path.join(INSTALL_DIR, "examples/load/locustfile.py");
console.log(`Locust: ${env.USERS} users, ${env.SPAWN_RATE}/s, ${env.RUN_TIME} against ${url}`);
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
  ],
  { stdio: "inherit" },
);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".csv"))
  .map((f) => path.join(dir, f));
uploadWithCli(files, {
  format: "locust",
  family: "load",
  env: env.ENV,
  branch: env.BRANCH,
  executor: env.EXECUTOR,
});
