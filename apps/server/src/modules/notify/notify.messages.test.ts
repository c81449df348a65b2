import { describe, expect, it } from "vitest";
import { emailParts, slackPayload, teamsPayload, type RunMessage } from "./notify.messages.js";

/**
 * The payloads against the rules Slack and Teams enforce (a message breaking one is refused
 * whole: Slack answers invalid_blocks), with the longest text a report can bring.
 */

const LONG = "x".repeat(5000);
const MESSAGE: RunMessage = {
  ruleName: "Nightly to #qa",
  outcome: "failed",
  run: {
    key: "k1",
    name: `Nightly <UI> & ${LONG}`,
    family: "frontend",
    branch: "main",
    site: null,
  },
  counts: { total: 40, passed: 10, failed: 30, skipped: 0, flaky: 0 },
  durationMs: 3_723_000,
  failures: Array.from({ length: 5 }, (_, i) => ({
    title: `Error ${i}: ${LONG}`,
    tests: ["__init__ sets *stars* - and _marks_", LONG, "c", "d", "e", "…and 12 more"],
  })),
  failuresTitle: "Top failures",
  url: "https://assay.example.com/test_runs/k1",
};

type Block = {
  type: string;
  text?: { type: string; text: string };
  fields?: { text: string }[];
  elements?: { type: string; text: string | { text: string }; url?: string }[];
};

describe("Slack's Block Kit", () => {
  it("keeps every block within Slack's limits", () => {
    const { text, blocks } = slackPayload(MESSAGE) as { text: string; blocks: Block[] };
    expect(blocks.length).toBeLessThanOrEqual(50);
    expect(text).toContain("Nightly &lt;UI&gt; &amp; x");
    for (const block of blocks) {
      if (block.type === "header") {
        expect(block.text!.type).toBe("plain_text");
        expect(block.text!.text.length).toBeLessThanOrEqual(150);
      }
      if (block.type === "section") {
        if (block.text) expect(block.text.text.length).toBeLessThanOrEqual(3000);
        expect((block.fields ?? []).length).toBeLessThanOrEqual(10);
        for (const field of block.fields ?? []) expect(field.text.length).toBeLessThanOrEqual(2000);
      }
      if (block.type === "context") expect(block.elements!.length).toBeLessThanOrEqual(10);
      if (block.type === "actions")
        for (const button of block.elements!) {
          expect((button.text as { text: string }).text.length).toBeLessThanOrEqual(75);
          expect(button.url!.length).toBeLessThanOrEqual(3000);
        }
    }
  });
});

describe("the Teams Adaptive Card", () => {
  it("shows report text as it is (TextRuns, no Markdown) in a card Teams renders", () => {
    const { attachments } = teamsPayload(MESSAGE) as {
      attachments: { content: { version: string; body: Record<string, unknown>[] } }[];
    };
    const card = attachments[0]!.content;
    // Teams renders Adaptive Cards up to 1.5; RichTextBlock came in 1.2.
    expect(Number(card.version)).toBeGreaterThanOrEqual(1.2);
    expect(Number(card.version)).toBeLessThanOrEqual(1.5);
    const texts = card.body.filter((b) => b.type === "TextBlock").map((b) => b.text);
    expect(texts).toEqual(["Top failures"]);
    const runs = card.body.flatMap((b) => (b.inlines as { type: string; text: string }[]) ?? []);
    expect(runs.every((run) => run.type === "TextRun")).toBe(true);
    expect(runs.map((run) => run.text)).toContain("• __init__ sets *stars* - and _marks_");
  });
});

describe("the email", () => {
  it("sets each group's tests in under it in the text part", () => {
    const { text, html } = emailParts({
      ...MESSAGE,
      run: { ...MESSAGE.run, name: "Nightly" },
      failures: [{ title: "TypeError: card is undefined", tests: ["Cart pays"] }],
    });
    expect(text).toContain("- TypeError: card is undefined\n    - Cart pays\n");
    expect(html).toContain("<li>Cart pays</li>");
    expect(html).toMatch(/Duration<br><strong [^>]*>1h 2m 3s<\/strong>/);
  });
});
