import { describe, expect, it } from "vitest";
import {
  countStatuses,
  deriveStatus,
  extractTickets,
  pendingReason,
  splitTickets,
} from "./status.js";

const unstable = new Set([7]);

describe("deriveStatus", () => {
  it("keeps passed and failed", () => {
    expect(deriveStatus({ status: "passed", test_id: 1 }, unstable)).toBe("passed");
    expect(deriveStatus({ status: "failed", test_id: 1, error_message: "boom" }, unstable)).toBe(
      "failed",
    );
  });

  it("treats a failure with 'Pending reason' as skipped, and a skipped report as skipped", () => {
    const pending = {
      status: "failed" as const,
      test_id: 7,
      error_message: "Pending reason == flaky env",
    };
    expect(deriveStatus(pending, unstable)).toBe("skipped");
    expect(deriveStatus({ status: "skipped", test_id: 1 }, unstable)).toBe("skipped");
  });

  it("marks a failed test of the @unstable tag unstable, never a passed one", () => {
    expect(deriveStatus({ status: "failed", test_id: 7 }, unstable)).toBe("unstable");
    expect(deriveStatus({ status: "passed", test_id: 7 }, unstable)).toBe("passed");
  });
});

describe("countStatuses", () => {
  it("counts unstable out of failed", () => {
    const counts = countStatuses(
      [
        { status: "passed", test_id: 1 },
        { status: "failed", test_id: 2 },
        { status: "failed", test_id: 7 },
        { status: "failed", test_id: 3, error_message: "Pending reason==later" },
      ],
      unstable,
    );
    expect(counts).toEqual({ total: 4, passed: 1, failed: 1, skipped: 1, unstable: 1 });
  });
});

describe("pendingReason", () => {
  it("is the text after '=='", () => {
    expect(pendingReason("Pending reason == waiting for NXL-12")).toBe("waiting for NXL-12");
    expect(pendingReason("Pending reason")).toBe("");
    expect(pendingReason(null)).toBe("");
  });
});

describe("extractTickets", () => {
  it("finds nxl- tickets in any case, upper-cased, once each", () => {
    expect(
      extractTickets(["Known bug nxl-123 and NXL-45", "again Nxl-123", null], "nxl-\\d+"),
    ).toEqual(["NXL-123", "NXL-45"]);
  });

  it("uses the configured pattern", () => {
    expect(extractTickets(["see QA-9 and nxl-1"], "qa-\\d+")).toEqual(["QA-9"]);
  });
});

describe("splitTickets", () => {
  it("cuts a message at the tickets extractTickets finds, upper-cased", () => {
    const message = "Blocked by nxl-5 (see NXL-77)";
    expect(splitTickets(message, "nxl-\\d+")).toEqual([
      { text: "Blocked by " },
      { ticket: "NXL-5" },
      { text: " (see " },
      { ticket: "NXL-77" },
      { text: ")" },
    ]);
    const tickets = splitTickets(message, "nxl-\\d+").flatMap((p) =>
      "ticket" in p ? [p.ticket] : [],
    );
    expect(tickets).toEqual(extractTickets([message], "nxl-\\d+"));
  });

  it("never makes a ticket of an empty match", () => {
    expect(splitTickets("abc", "x*")).toEqual([{ text: "abc" }]);
    expect(extractTickets(["abc"], "x*")).toEqual([]);
  });
});
