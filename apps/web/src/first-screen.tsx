import createCache from "@emotion/cache";
import { CacheProvider } from "@emotion/react";
import createEmotionServer from "@emotion/server/create-instance";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  matchPath,
  StaticRouterProvider,
} from "react-router";
import { createQueryClient } from "./api/query-client";
import { AppProviders } from "./AppProviders";
import { firstScreenReads, keepFirstScreenAnswers } from "./first-screen-read";
import { renderingOpening, startOpeningRead } from "./features/runs/view/opening-read";
import { createRoutes } from "./routes";
import { SCREEN_CODE } from "./screen-code";

/*
 * The server's side of a page opened cold at a run's results dialog (built apart, as
 * dist-ssr/first-screen.js, and loaded by the server: apps/server/src/http/first-screen.ts). The
 * server reads what the dialog shows first the way the page would (firstScreenPaths: the same
 * requests, with the visitor's cookies, so the same access checks), renders the page with the
 * answers (renderFirstScreen), and sends the HTML, its styles and the answers with index.html; the app
 * then takes that HTML over (main.tsx, hydrateRoot) instead of rendering it again from nothing.
 * The first screen is on screen as soon as the HTML is, before the app's scripts have run
 * (docs/performance.md, "Large runs").
 */

const ORIGIN = "http://assay.invalid";

function reportParams(url: string) {
  const { pathname, search } = new URL(url, ORIGIN);
  const match = matchPath(SCREEN_CODE.runs.path, pathname);
  return match && { params: match.params, search };
}

/** The API paths (GET) the page at `url` (path and query) reads for its first screen, or null. */
export function firstScreenPaths(url: string): string[] | null {
  const report = reportParams(url);
  const reads = report && firstScreenReads(report.params, report.search);
  return reads && reads.map((read) => read.path);
}

export interface FirstScreen {
  /** The app's markup, for index.html's #root. */
  html: string;
  /** Its styles, as <style> elements for the head. */
  styles: string;
}

/**
 * The page at `url` rendered with `bodies`, the server's answers to firstScreenPaths(url) in
 * order, or null when that page shows no run dialog. Renders are synchronous, so one at a time.
 */
export async function renderFirstScreen(
  url: string,
  bodies: readonly unknown[],
): Promise<FirstScreen | null> {
  const report = reportParams(url);
  const reads = report && firstScreenReads(report.params, report.search);
  if (!report || !reads) return null;
  // Loaded, the screen renders at once (routes.tsx lazyPage) instead of suspending.
  await SCREEN_CODE.runs.load();
  const handler = createStaticHandler(createRoutes("full"));
  const context = await handler.query(new Request(new URL(url, ORIGIN)));
  if (context instanceof Response) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  // No sign-in redirect on the server: the read answered, so the visitor may read the run.
  const queryClient = createQueryClient(() => undefined);
  const cache = createCache({ key: "css" });
  const emotion = createEmotionServer(cache);
  keepFirstScreenAnswers(queryClient, reads, bodies);
  const html = renderingOpening(() => {
    startOpeningRead(queryClient, report.params, report.search, true);
    return renderToString(
      <StrictMode>
        <CacheProvider value={cache}>
          <AppProviders queryClient={queryClient}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </AppProviders>
        </CacheProvider>
      </StrictMode>,
    );
  });
  queryClient.clear();
  return {
    html,
    styles: emotion.constructStyleTagsFromChunks(emotion.extractCriticalToChunks(html)),
  };
}
