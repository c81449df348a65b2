import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderUi } from "../../../test/render-ui";
import { buildBackendResult } from "../../../test/run-fixtures";
import { EarlierAttempts } from "./EarlierAttempts";

vi.setConfig({ testTimeout: 30_000 });

const first = buildBackendResult({
  test_run_key: "api-run-1",
  test_run_test_id: "visits#0",
  test_id: 21,
  attempt: 0,
  is_final: false,
  status: "failed",
  passed: false,
  derived_status: "failed",
  duration_ms: 2000,
  error_message: { name: "AssertionError", message: "expected 502 to equal 200", stack: null },
});
const rerun = buildBackendResult({
  test_run_key: "api-run-1",
  test_run_test_id: "visits#1",
  test_id: 21,
  attempt: 1,
  flaky: true,
});
// What GET /v1/api-test-detail answers: the result, its requests and its test's attempts.
const detailOf = (result: typeof first) => ({
  ...result,
  apiRequests: [],
  attempts: [rerun, first],
});

describe("EarlierAttempts", () => {
  it("lists a rerun result's earlier attempts with their status, time and error", async () => {
    renderUi(<EarlierAttempts result={detailOf(rerun)} />);
    const section = await screen.findByRole("region", { name: "Earlier attempts" });
    const items = within(section).getAllByRole("listitem");
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent(
      /^First try\s*Failed.*2s.*AssertionError: expected 502 to equal 200$/,
    );
  });

  it("shows nothing for a first attempt", () => {
    const { container } = renderUi(<EarlierAttempts result={detailOf(first)} />);
    expect(container).toBeEmptyDOMElement();
  });
});
