import type { ResultAttachment } from "@assay/core";
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { buildCatalog } from "../../../test/catalog-factory";
import { jsonResponse, mockApi, requestedPaths } from "../../../test/mock-api";
import { renderUi } from "../../../test/render-ui";
import { buildTestDetail } from "../../../test/run-fixtures";
import { TEXT_PREVIEW_BYTES } from "./AttachmentList";
import { TestDetailDialog } from "./TestDetailDialog";

// MUI's dialogs are slow to render in jsdom; these tests wait for real renders.
vi.setConfig({ testTimeout: 30_000 });

const XSS = "<b>bold</b><script>alert(1)</script>";
const steps = [
  { action: "Given an order", passed: true, codeLocation: null, duration_ms: 5 },
  { action: "When I pay by invoice", passed: true, codeLocation: null, duration_ms: 5 },
];
const attachment = (over: Partial<ResultAttachment>): ResultAttachment => ({
  id: 1,
  name: "attachment-1.txt",
  description: null,
  path: "attachments/2026/11/a.txt",
  contentType: "text/plain",
  size: 0,
  stepIndex: null,
  ...over,
});

function renderWith(attachments: ResultAttachment[], objects: Record<string, string>) {
  const detail = buildTestDetail({ json_steps: steps, attachments });
  const fetchMock = mockApi({
    "/v1/catalog": () => jsonResponse(buildCatalog()),
    "/v1/test-detail/ui-run-1/login%230": () => jsonResponse(detail),
    ...Object.fromEntries(
      Object.entries(objects).map(([path, text]) => [
        `/v1/objects/${path}`,
        () => new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8" } }),
      ]),
    ),
  });
  renderUi(
    <TestDetailDialog
      runKey="ui-run-1"
      testKey="login#0"
      onClose={() => {}}
      onOpenAttempt={() => {}}
    />,
  );
  return fetchMock;
}

const attachments = async () =>
  within(await screen.findByRole("region", { name: "Attachments" }, { timeout: 5000 }));

describe("Frontend test detail dialog: attachments other than screenshots", () => {
  it("shows a text attachment as text, escaped, with its step and a link to download it", async () => {
    const text = `invoice requested\n${XSS}`;
    const fetchMock = renderWith(
      [
        attachment({ size: new TextEncoder().encode(text).length, stepIndex: 1 }),
        attachment({
          id: 2,
          name: "trace.zip",
          path: "attachments/2026/11/b.zip",
          contentType: "application/zip",
          size: 2048,
        }),
      ],
      { "attachments/2026/11/a.txt": text },
    );
    const section = await attachments();
    const shown = await section.findByLabelText("attachment-1.txt", { selector: "pre" });
    expect(shown.textContent).toBe(text);
    expect(document.querySelector("script, b")).toBeNull();
    expect(
      section.getByText(/text\/plain · 54 bytes · after step 2: When I pay by invoice/),
    ).toBeInTheDocument();
    expect(section.getByRole("link", { name: "Download attachment-1.txt" })).toHaveAttribute(
      "href",
      "/v1/objects/attachments/2026/11/a.txt",
    );
    expect(section.queryByText(/download the whole file for the rest/)).toBeNull();
    // A zip is only offered as a download: its bytes are never read into the page.
    const zip = within(section.getByRole("figure", { name: "trace.zip" }));
    expect(zip.getByRole("link", { name: "Download trace.zip" })).toHaveAttribute(
      "download",
      "trace.zip",
    );
    expect(zip.queryByLabelText("trace.zip", { selector: "pre" })).toBeNull();
    expect(requestedPaths(fetchMock)).not.toContain("/v1/objects/attachments/2026/11/b.zip");
  });

  it("does not repeat the step's words for an embedding titled after its step", async () => {
    renderWith(
      [
        attachment({
          name: "attachment-1.txt",
          description: "When I pay by invoice (failed)",
          stepIndex: 1,
          size: 4,
        }),
      ],
      { "attachments/2026/11/a.txt": "page" },
    );
    const section = await attachments();
    const figure = within(section.getByRole("figure", { name: "When I pay by invoice (failed)" }));
    expect(figure.getByText("text/plain · 4 bytes · after step 2")).toBeInTheDocument();
    expect(figure.getAllByText(/When I pay by invoice/)).toHaveLength(1);
  });

  it("shows only the start of a long text attachment and says how much of it", async () => {
    const line = "GET /api/orders 200 12ms\n";
    const text = line.repeat(Math.ceil((3 * TEXT_PREVIEW_BYTES) / line.length));
    renderWith([attachment({ name: "server.log", size: text.length })], {
      "attachments/2026/11/a.txt": text,
    });
    const section = await attachments();
    const shown = await section.findByLabelText("server.log", { selector: "pre" });
    expect(shown.textContent).toBe(text.slice(0, TEXT_PREVIEW_BYTES));
    expect(
      section.getByText(/The first 64 KB of 192 KB; download the whole file/),
    ).toBeInTheDocument();
    expect(section.getByRole("link", { name: "Download server.log" })).toBeInTheDocument();
  });

  it("shows no Attachments section for a result without any", async () => {
    renderWith([], {});
    await screen.findByRole("dialog", { name: /TC321/ }, { timeout: 5000 });
    await screen.findByRole("region", { name: "Screenshots" });
    expect(screen.queryByRole("region", { name: "Attachments" })).toBeNull();
  });
});
