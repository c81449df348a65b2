import { describe, expect, it } from "vitest";
import { DEFAULT_SETTLE_SECONDS, NotifyConfig, readNotifyConfig } from "./notify.config.js";

describe("ASSAY_NOTIFY_SETTLE_SECONDS", () => {
  it("defaults, reads whole seconds and refuses anything else in words", () => {
    expect((readNotifyConfig([], {}) as NotifyConfig).settleSeconds).toBe(DEFAULT_SETTLE_SECONDS);
    const zero = readNotifyConfig([], { ASSAY_NOTIFY_SETTLE_SECONDS: "0" }) as NotifyConfig;
    expect(zero.settleSeconds).toBe(0);
    for (const bad of ["-1", "1.5", "ten", "3601"]) {
      expect(readNotifyConfig([], { ASSAY_NOTIFY_SETTLE_SECONDS: bad })).toEqual({
        problems: [
          `ASSAY_NOTIFY_SETTLE_SECONDS: expected whole seconds from 0 to 3600, got "${bad}"`,
        ],
      });
    }
  });
});
