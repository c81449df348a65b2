import { describe, expect, it } from "vitest";
import { formatUtc } from "./utc-time.js";

describe("formatUtc", () => {
  it("shows the moment in UTC whatever offset it was written with", () => {
    expect(formatUtc("2026-05-01T12:00:03.250Z")).toBe("2026-05-01 12:00:03 UTC");
    expect(formatUtc("2026-05-01T14:00:03+02:00")).toBe("2026-05-01 12:00:03 UTC");
  });

  it("shows a dash for a missing or unreadable value", () => {
    expect(formatUtc(null)).toBe("–");
    expect(formatUtc("not a date")).toBe("–");
  });
});
