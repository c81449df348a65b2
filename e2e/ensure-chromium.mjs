// Makes sure a Chromium is there for the browser journeys: Debian's package, installed on the
// spot when this runs as root with apt-get (as on CI), otherwise one line saying how.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const path = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (existsSync(path)) process.exit(0);

const isRoot = process.getuid?.() === 0;
const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
if (process.env.CHROMIUM_PATH || !isRoot || !hasApt) {
  console.error(
    `Chromium not found at ${path}: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}
console.log("Chromium is missing: installing Debian's chromium package (once per machine)...");
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
if (!existsSync(path)) {
  console.error(`apt-get installed chromium but ${path} is still missing; set CHROMIUM_PATH.`);
  process.exit(1);
}
