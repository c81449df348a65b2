import { FIRST_SCREEN_READ_ID } from "@assay/core";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "./test/catalog-factory";
import { buildFailedResult, buildRunDetail } from "./test/frontend-run-fixtures";
import { testQueryClient } from "./test/render-app";
import { frontendViewHandler } from "./test/run-view-fake";
import { firstScreenReads, keepServedAnswers } from "./first-screen-read";

/*
 * The page takes over a first screen the server rendered by putting the answers it was rendered
 * from in the cache under the page's own queries; answers it cannot read leave the cache empty,
 * and the page renders from nothing.
 */

const reads = firstScreenReads({ key: "ui-run-1" }, "?hide=passed") ?? [];

function pageWith(script: string | null): Document {
  const doc = document.implementation.createHTMLDocument("Assay");
  doc.body.innerHTML = `<div id="root"><main>served</main></div>`;
  if (script !== null) {
    const element = doc.createElement("script");
    element.type = "application/json";
    element.id = FIRST_SCREEN_READ_ID;
    element.textContent = script;
    doc.body.append(element);
  }
  return doc;
}

async function viewBody(): Promise<unknown> {
  const detail = buildRunDetail([buildFailedResult({ test_id: 5, title: "Login" })]);
  const url = new URL("http://assay.test/v1/test-runs/ui-run-1/view?hide=passed&offset=0&limit=60");
  return (await frontendViewHandler(detail, { majorTags: [] })(url)).json();
}

describe("the answers of a first screen the server rendered", () => {
  it("are the run view's first page, the catalogue and the dynamic tags, in that order", () => {
    expect(reads.map((read) => read.path)).toEqual([
      "/v1/test-runs/ui-run-1/view?hide=passed&offset=0&limit=60",
      "/v1/catalog",
      "/v1/dtag",
    ]);
    const backend = firstScreenReads({ key: "api-1" }, "?be=1") ?? [];
    expect(backend.map((read) => read.path)).toEqual([
      "/v1/api-test-run/api-1/view?offset=0&limit=60",
      "/v1/catalog",
    ]);
    expect(firstScreenReads({}, "?tab=backend")).toBeNull();
  });

  it("are kept under the page's own queries, parsed as the page parses them", async () => {
    const queryClient = testQueryClient();
    const tags = { byTag: {}, options: [] };
    const bodies = [await viewBody(), buildCatalog(), tags];
    expect(keepServedAnswers(queryClient, reads, pageWith(JSON.stringify({ bodies })))).toBe(true);
    const view = queryClient.getQueryData<{ shown: number }>(reads[0]!.queryKey);
    expect(view?.shown).toBe(1);
    expect(queryClient.getQueryData(reads[2]!.queryKey)).toEqual(tags);
  });

  it("leave the cache empty when there are none or the page cannot read them", async () => {
    const queryClient = testQueryClient();
    expect(keepServedAnswers(queryClient, reads, pageWith(null))).toBe(false);
    expect(keepServedAnswers(queryClient, reads, pageWith("{not json"))).toBe(false);
    const wrong = {
      bodies: [await viewBody(), { not: "a catalogue" }, { byTag: {}, options: [] }],
    };
    expect(keepServedAnswers(queryClient, reads, pageWith(JSON.stringify(wrong)))).toBe(false);
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });
});
