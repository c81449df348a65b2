import { describe, expect, it } from "vitest";
import { objectUrl } from "./object-url";

describe("objectUrl", () => {
  it("keeps the key's slashes", () => {
    expect(objectUrl("attachments/2026/05/shot.png")).toBe(
      "/v1/objects/attachments/2026/05/shot.png",
    );
  });

  it("encodes each segment, so a key with a space or # still names its object", () => {
    expect(objectUrl("attachments/my shot #1.png")).toBe(
      "/v1/objects/attachments/my%20shot%20%231.png",
    );
  });
});
