import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { FIRST_SCREEN_READ_ID } from "@assay/core";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";

/** The web app's server entry (apps/web/src/first-screen.tsx), built as dist-ssr/first-screen.js. */
interface FirstScreenModule {
  firstScreenPaths(url: string): string[] | null;
  renderFirstScreen(
    url: string,
    bodies: readonly unknown[],
  ): Promise<{ html: string; styles: string } | null>;
}

/**
 * The web build's server entry, or undefined when it is not built or cannot be loaded (the page
 * then renders alone, as when a first screen fails to render). Loading fails while a build
 * rewrites the folder (its chunks are removed first): a server started at that moment, beside
 * `npm start` in another terminal or in the test suite, ended at once.
 */
export async function loadFirstScreen(
  distDir: string,
  log: FastifyBaseLogger,
): Promise<FirstScreenModule | undefined> {
  const file = path.join(distDir, "..", "dist-ssr", "first-screen.js");
  if (!existsSync(file)) return undefined;
  try {
    return (await import(pathToFileURL(file).href)) as FirstScreenModule;
  } catch (error) {
    log.warn({ err: error, file }, "web app's first screen not loaded: pages render alone");
    return undefined;
  }
}

// JSON inside a <script> element: no "</script>" or "<!--" can end it early.
const scriptSafe = (json: string) => json.replace(/</g, "\\u003c");

/**
 * index.html with the first screen of the page the request opens rendered into it, or null when
 * that page has none (only a run's results dialog has one) or one of its reads did not answer
 * 200 (the page then renders alone and shows what the read said). The reads go through the app
 * with the request's own credentials, so they are answered exactly as the page's own requests
 * would be: the same access checks, validation and kept answers.
 */
export async function renderFirstScreenPage(
  app: FastifyInstance,
  request: FastifyRequest,
  module: FirstScreenModule,
  indexHtml: string,
): Promise<string | null> {
  const paths = module.firstScreenPaths(request.url);
  if (!paths) return null;
  const { cookie, authorization } = request.headers;
  const headers = {
    accept: "application/json",
    ...(cookie === undefined ? {} : { cookie }),
    ...(authorization === undefined ? {} : { authorization }),
  };
  const answers = await Promise.all(
    paths.map((url) => app.inject({ method: "GET", url, remoteAddress: request.ip, headers })),
  );
  if (answers.some((answer) => answer.statusCode !== 200)) return null;
  const bodies = answers.map((answer): unknown => answer.json());
  const screen = await module.renderFirstScreen(request.url, bodies);
  if (!screen) return null;
  const data = `<script type="application/json" id="${FIRST_SCREEN_READ_ID}">${scriptSafe(JSON.stringify({ bodies }))}</script>`;
  // Functions, not strings, as replacements: a "$&" in a test's name is text, not a pattern.
  return indexHtml
    .replace("</head>", () => `${screen.styles}</head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${screen.html}</div>${data}`);
}
