import type { DemoUpload } from "./demo-reports.js";
import type { RunTimes } from "./demo.repo.js";

/*
 * Renamed tests in the demo (issue 35): the nightly "Orders API" job of three nights. Last night
 * two of its tests came under new names: "rejects an empty cart" keeps its JUnit test_id
 * property (ORD-7), so ingest aliased it at once; "lists orders by status" has the same file
 * and steps as the gone "filters orders by status", so it waits on the Renamed Tests screen as
 * a suggestion to confirm. Each history then reads across both names.
 */

interface OrdersCase {
  name: string;
  properties: Record<string, string>;
  fails?: boolean;
}

export const ORDERS_FILE = "api/orders.spec.ts";
const STATUS_STEPS = { step: "create three orders", step1: "GET /orders?status=open" };

/** The tests of one night: before (0, 1) and after (2) the renames. */
function casesOf(night: number): OrdersCase[] {
  const renamed = night === 2;
  return [
    {
      name: renamed ? "refuses to check out an empty cart" : "rejects an empty cart",
      properties: { test_id: "ORD-7", step: "POST /checkout with no items" },
      fails: night === 1,
    },
    {
      name: renamed ? "lists orders by status" : "filters orders by status",
      properties: STATUS_STEPS,
      fails: night === 0,
    },
    { name: "reads one order", properties: { step: "GET /orders/42" } },
  ];
}

function junit(cases: readonly OrdersCase[], at: Date): string {
  const body = cases
    .map((c) => {
      const props = Object.entries(c.properties)
        .map(([name, value]) => `<property name="${name}" value="${value}"/>`)
        .join("");
      const failure = c.fails
        ? `<failure message="expected 201, got 500">AssertionError: expected 201, got 500</failure>`
        : "";
      return `<testcase classname="Orders API" name="${c.name}" file="${ORDERS_FILE}" time="0.4"><properties>${props}</properties>${failure}</testcase>`;
    })
    .join("");
  const failures = cases.filter((c) => c.fails).length;
  return `<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="Orders API" tests="${cases.length}" failures="${failures}" timestamp="${at.toISOString().slice(0, 19)}">${body}</testsuite></testsuites>`;
}

const DAY_MS = 86_400_000;

/** The job's three nightly uploads, oldest first, with the times their runs are dated to. */
export function renamedTestRuns(now: Date): { uploads: DemoUpload[]; times: RunTimes[] } {
  const uploads: DemoUpload[] = [];
  const times: RunTimes[] = [];
  for (let night = 0; night < 3; night++) {
    const at = new Date(now.getTime() - (3 - night) * DAY_MS + 2 * 3_600_000);
    const key = `orders-api-nightly-${night + 1}`;
    uploads.push({
      kind: "files",
      fields: {
        run_key: key,
        family: "backend",
        test_run_name: "Orders API nightly",
        executor: "orders-nightly",
        branch: "main",
        format: "junit",
      },
      files: [{ name: "orders-junit.xml", content: junit(casesOf(night), at) }],
    });
    times.push({ key, createdAt: at, startedAt: at, finishedAt: new Date(at.getTime() + 1_200) });
  }
  return { uploads, times };
}
