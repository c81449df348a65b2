#!/usr/bin/env node
// A stand-in for the `locust` command where Locust is not installed (CI): it takes Locust's own
// arguments, writes the files `locust --csv PREFIX --html FILE` writes (a real Locust run's stats
// CSVs, from the parser's fixtures) after running for a second, and records its arguments in
// $HOME/locust-args.json so a test can see what the runner asked for.
import { copyFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/locust");
const args = process.argv.slice(2);
const value = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const prefix = value("csv");
const html = value("html");
if (!prefix) {
  process.stderr.write("locust (test stand-in): --csv=PREFIX is required\n");
  process.exit(2);
}
await new Promise((resolve) => setTimeout(resolve, 1_000));
copyFileSync(path.join(fixtures, "run_stats.csv"), `${prefix}_stats.csv`);
copyFileSync(path.join(fixtures, "run_stats_history.csv"), `${prefix}_stats_history.csv`);
if (html) writeFileSync(html, "<!doctype html><title>Locust report</title><h1>Locust</h1>");
if (process.env.HOME)
  writeFileSync(path.join(process.env.HOME, "locust-args.json"), JSON.stringify(args));
process.stdout.write("locust (test stand-in): done\n");
