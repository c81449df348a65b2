import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import { APP_MODE_META, type AppMode } from "@assay/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../errors.js";
import { loadFirstScreen, renderFirstScreenPage } from "./first-screen.js";

/** The built React app (npm run build -w @assay/web). */
export const WEB_DIST_DIR = fileURLToPath(new URL("../../../web/dist/", import.meta.url));

/** Paths that belong to the server; an unknown one is a JSON 404, never the React app. */
const SERVER_PREFIXES = [
  "/v1/",
  "/docs",
  "/auth/",
  "/oidc",
  "/.well-known/",
  "/healthz",
  "/readyz",
];

/** A path the web app answers (a screen), not the server's API, sign-in or build files. */
export function isPagePath(pathname: string): boolean {
  return (
    !SERVER_PREFIXES.some((prefix) => pathname.startsWith(prefix)) &&
    !pathname.startsWith("/assets/")
  );
}

const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>Assay</title>
<p>The web app is not built. Run <code>npm run build</code> in the repository root, then restart.</p>`;

export interface WebAppOptions {
  distDir?: string;
  /** Host names that show only the Data Harmonization screen (ASSAY_DATA_HARMONIZATION_HOSTS). */
  dataHarmonizationHosts: RegExp | undefined;
}

/** Decides the layout per request, from the Host header alone (spec section 1, host-based mode). */
export function appModeFor(hostname: string, hosts: RegExp | undefined): AppMode {
  const name = hostname.replace(/:\d+$/, "").toLowerCase();
  return hosts?.test(name) ? "data-harmonization" : "full";
}

/**
 * Serves the React app: hashed assets from dist/assets with long caching, and index.html for
 * every other page path with the app mode written into its meta tag, so the page knows its
 * layout before the first paint.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions) {
  const distDir = options.distDir ?? WEB_DIST_DIR;
  const indexFile = path.join(distDir, "index.html");
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile, "utf8") : undefined;
  const metaPattern = new RegExp(`(<meta name="${APP_MODE_META}" content=")[^"]*(")`);
  const firstScreen = indexHtml ? await loadFirstScreen(distDir, app.log) : undefined;

  if (indexHtml) {
    // The build's files are the same for every install and hold no data, so they are open even
    // in signed-in mode (the login page uses the favicon). One route per file (no wildcard), so
    // that any other path reaches the not-found handler and is a page, guarded as one.
    await app.register(async (files) => {
      files.addHook("onRoute", (route) => {
        route.config = { ...route.config, access: "open" };
      });
      await files.register(fastifyStatic, {
        root: distDir,
        index: false,
        wildcard: false,
        // index.html is only ever sent by sendPage, with the app mode filled in; the .br and .gz
        // files written at build (precompress-web.ts) are sent in place of the file they compress.
        globIgnore: ["index.html", "**/*.br", "**/*.gz"],
        preCompressed: true,
        // Vite puts a content hash in every asset name, so a file never changes under its URL.
        setHeaders: (res, filePath) => {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          res.header(
            "cache-control",
            immutable ? "public, max-age=31536000, immutable" : "no-cache",
          );
        },
      });
    });
  }

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const mode = appModeFor(request.hostname, options.dataHarmonizationHosts);
    reply.header("cache-control", "no-cache").type("text/html; charset=utf-8");
    if (!indexHtml) return reply.status(503).send(NOT_BUILT_PAGE);
    const page = indexHtml.replace(metaPattern, `$1${mode}$2`);
    const rendered =
      firstScreen && mode === "full" && request.method === "GET"
        ? await renderFirstScreenPage(app, request, firstScreen, page).catch((error: unknown) => {
            request.log.warn({ err: error }, "first screen not rendered; the page renders alone");
            return null;
          })
        : null;
    // A rendered first screen holds what this visitor may read: no shared cache keeps it.
    if (rendered) reply.header("cache-control", "private, no-cache");
    return reply.send(rendered ?? page);
  };

  app.get("/", { config: { access: "page" }, schema: { hide: true } }, sendPage);

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const isPage = (request.method === "GET" || request.method === "HEAD") && isPagePath(pathname);
    if (isPage) return sendPage(request, reply);
    throw notFound(`No route ${request.method} ${pathname}. The API is described at /docs.`);
  });
}
