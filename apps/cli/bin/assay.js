#!/usr/bin/env node
// The `assay` command. The TypeScript sources compile to dist/ on `npm install` (the root
// package's prepare script); say so plainly instead of a module-not-found trace if they are missing.
import { existsSync } from "node:fs";

const entry = new URL("../dist/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "assay: the CLI is not built yet; run `npm run build` in the repository root.\n",
  );
  process.exit(2);
}
await import(entry.href);
