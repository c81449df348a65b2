import autocannon from "autocannon";
import { MAX_FAILS_LIMIT, MAX_HISTORY_LIMIT } from "@assay/core";
import { Random } from "../bench/random.js";
import type { RouteSample } from "./load-report.js";

/** What the readers read: runs and tests found in the dataset (dataset.ts). */
export interface ReadTargets {
  /** Keys of the newest frontend runs with results (a morning's runs). */
  frontendRuns: string[];
  /** Keys of the newest backend runs with results. */
  backendRuns: string[];
  /** Stable ids of the tests that failed most (what a QA engineer looks up). */
  testIds: number[];
  /** Pages of the frontend run list at the default page size. */
  frontendPages: number;
}

/** The results dialog's first page and the pages after it (web: use-run-view.ts). */
const FIRST_PAGE_ROWS = 60;
const NEXT_PAGE_ROWS = 300;
const PAGE_SIZE = 15;

/** One read route of the mix: its share of the readers, and the path of its next request. */
interface ReadRoute {
  name: string;
  /** Readers on this route out of 50. */
  weight: number;
  path: (random: Random) => string;
}

const encode = encodeURIComponent;

/**
 * A QA engineer's morning, as the web app asks for it: the run lists, a run's results dialog
 * (its first page, then the next as they scroll; the history icons of its tests), the spec's
 * whole-run detail that API clients read, a test's history, Top Fails and the Dashboard charts.
 * Weights are readers out of 50: lists and the dialog's first page most, charts least.
 */
export function readRoutes(t: ReadTargets): ReadRoute[] {
  const fe = (r: Random) => encode(r.pick(t.frontendRuns));
  const dashboard = (r: Random) => {
    const family = r.pick(["frontend", "backend"] as const);
    const platform = family === "frontend" ? `&platform=${r.pick(["legacy", "nextGen"])}` : "";
    return `family=${family}${platform}&env=${r.pick(["dev", "stage"])}&days=${r.pick([14, 30, 90])}`;
  };
  return [
    {
      name: "GET /v1/test-runs (page 1)",
      weight: 8,
      path: () => `/v1/test-runs?page=1&page_size=${PAGE_SIZE}`,
    },
    {
      name: "GET /v1/test-runs (pages 2-5)",
      weight: 3,
      path: (r) =>
        `/v1/test-runs?page=${r.int(2, Math.max(2, Math.min(5, t.frontendPages)))}&page_size=${PAGE_SIZE}`,
    },
    {
      name: "GET /v1/api-test-runs (page 1)",
      weight: 3,
      path: () => `/v1/api-test-runs?page=1&page_size=${PAGE_SIZE}`,
    },
    {
      name: "GET /v1/test-runs/{key} (run detail)",
      weight: 5,
      path: (r) => `/v1/test-runs/${fe(r)}`,
    },
    {
      name: "GET /v1/test-runs/{key}/view (first page)",
      weight: 8,
      path: (r) => `/v1/test-runs/${fe(r)}/view?offset=0&limit=${FIRST_PAGE_ROWS}`,
    },
    {
      name: "GET /v1/test-runs/{key}/view (next page)",
      weight: 4,
      path: (r) =>
        `/v1/test-runs/${fe(r)}/view?offset=${FIRST_PAGE_ROWS}&limit=${NEXT_PAGE_ROWS}&summary=false`,
    },
    {
      name: "GET /v1/test-runs/{key}/history",
      weight: 3,
      path: (r) => `/v1/test-runs/${fe(r)}/history`,
    },
    {
      name: "GET /v1/api-test-run/{key}/view",
      weight: 3,
      path: (r) =>
        `/v1/api-test-run/${encode(r.pick(t.backendRuns))}/view?offset=0&limit=${FIRST_PAGE_ROWS}`,
    },
    {
      name: "GET /v1/history/{id}",
      weight: 5,
      path: (r) => `/v1/history/${r.pick(t.testIds)}?limit=${MAX_HISTORY_LIMIT}`,
    },
    { name: "GET /v1/fails", weight: 3, path: () => `/v1/fails?limit=${MAX_FAILS_LIMIT}` },
    {
      name: "GET /v1/dashboard/daily-runs",
      weight: 3,
      path: (r) => `/v1/dashboard/daily-runs?${dashboard(r)}`,
    },
    {
      name: "GET /v1/dashboard/rerun-runs",
      weight: 2,
      path: (r) => `/v1/dashboard/rerun-runs?${dashboard(r)}`,
    },
  ];
}

/** `readers` connections shared out by weight (largest remainder), at least one per route. */
export function shareReaders(weights: readonly number[], readers: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w * readers) / sum);
  const shares = exact.map((x) => Math.max(1, Math.floor(x)));
  const byRemainder = exact
    .map((x, i) => ({ i, rest: x - Math.floor(x) }))
    .sort((a, b) => b.rest - a.rest);
  for (let k = 0; shares.reduce((a, b) => a + b, 0) < readers; k++) {
    shares[byRemainder[k % byRemainder.length]!.i]!++;
  }
  return shares;
}

/** As a browser asks: JSON, compressed answers accepted. */
const HEADERS = { accept: "application/json", "accept-encoding": "gzip, deflate, br" };

/** One route's readers for `seconds`: autocannon, each connection one request after another. */
function readRoute(
  baseUrl: string,
  route: ReadRoute,
  connections: number,
  seconds: number,
  seed: number,
): Promise<RouteSample> {
  const sample: RouteSample = { route: route.name, latencies: [], errors: 0, statuses: {} };
  const random = new Random(seed);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        duration: seconds,
        // A request unanswered for 10 s counts as an error (a time-out).
        timeout: 10,
        headers: HEADERS,
        requests: [
          { method: "GET", setupRequest: (req) => ({ ...req, path: route.path(random) }) },
        ],
      },
      (error: unknown, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        // Errors autocannon counted without an answer: refused or reset connections, time-outs.
        sample.errors += result.errors;
        resolve(sample);
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) {
        sample.latencies.push(responseTime);
        return;
      }
      sample.errors++;
      sample.statuses[statusCode] = (sample.statuses[statusCode] ?? 0) + 1;
    });
  });
}

/**
 * `readers` concurrent readers for `seconds`, shared out over the routes by weight; each
 * route's latencies, errors and statuses. Every route runs at once, so they load the server
 * together as a team's browsers would.
 */
export async function runReaders(
  baseUrl: string,
  targets: ReadTargets,
  readers: number,
  seconds: number,
): Promise<RouteSample[]> {
  const routes = readRoutes(targets);
  const shares = shareReaders(
    routes.map((r) => r.weight),
    readers,
  );
  return Promise.all(
    routes.map((route, i) => readRoute(baseUrl, route, shares[i]!, seconds, i + 1)),
  );
}

/** Calls every route a few times, one at a time, so the measured run starts with warm code. */
export async function warmUp(baseUrl: string, targets: ReadTargets, rounds: number): Promise<void> {
  const random = new Random(99);
  for (let i = 0; i < rounds; i++) {
    for (const route of readRoutes(targets)) {
      const response = await fetch(`${baseUrl}${route.path(random)}`, {
        headers: HEADERS,
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${route.name}: warm-up answered ${response.status}`);
    }
  }
}
