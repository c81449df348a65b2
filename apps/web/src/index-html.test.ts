import { describe, expect, it } from "vitest";
import indexHtml from "../index.html?raw";
import { readAppMode } from "./app-mode";

const page = new DOMParser().parseFromString(indexHtml, "text/html");

describe("index.html", () => {
  it("carries the mode tag the server rewrites per request, set to the full layout", () => {
    // The server replaces this exact text; changing it silently breaks host-based mode.
    expect(indexHtml).toContain('<meta name="assay-mode" content="full" />');
    expect(readAppMode(page)).toBe("full");
  });

  it("has no inline script, so a script-src 'self' policy can be enforced", () => {
    const scripts = [...page.querySelectorAll("script")];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.getAttribute("src")).toBeTruthy();
      expect(script.textContent?.trim()).toBe("");
    }
  });
});
