// Part of `npm run check`: every file a package.json script runs exists. A script that runs a
// build output (dist/x.js) counts when its source (src/x.ts) exists, since the build makes it.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const root = JSON.parse(readFileSync("package.json", "utf8"));
const packages = [".", ...root.workspaces];
const FILE = /^[\w@./-]+\.(?:m?js|cjs|ts|mts|tsx)$/;
const problems = [];

for (const dir of packages) {
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  for (const [name, command] of Object.entries(manifest.scripts ?? {})) {
    for (const token of command.split(/\s+/)) {
      if (!FILE.test(token) || token.startsWith("-")) continue;
      const file = path.join(dir, token);
      const source = file
        .replace(`${path.sep}dist${path.sep}`, `${path.sep}src${path.sep}`)
        .replace(/\.js$/, ".ts");
      if (!existsSync(file) && !existsSync(source)) {
        problems.push(
          `${path.join(dir, "package.json")}: script "${name}" runs ${token}, which does not exist`,
        );
      }
    }
  }
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`script targets: all present (${packages.length} package.json files)`);
