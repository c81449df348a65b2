import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { WEB_DIST_DIR } from "./web-app.js";

/** The built files worth compressing: text, not images or fonts that are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
const MIN_BYTES = 1024;

/**
 * Writes name.br and name.gz next to each compressible file of the built web app, at the highest
 * settings (it runs once per build, not per request), for @fastify/static's preCompressed.
 * index.html is skipped: the server fills in the app mode per request and compresses that.
 */
export async function precompressWebApp(distDir = WEB_DIST_DIR): Promise<string[]> {
  const written: string[] = [];
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name) || entry.name === "index.html") continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await readFile(file);
    if (bytes.length < MIN_BYTES) continue;
    const br = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
    await writeFile(`${file}.br`, br);
    await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
    written.push(path.relative(distDir, file));
  }
  return written;
}

// `node apps/server/dist/http/precompress-web.js [distDir]`, run by the root `npm run build`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const written = await precompressWebApp(process.argv[2]);
  process.stdout.write(`precompressed ${written.length} web app files (.br, .gz)\n`);
}
