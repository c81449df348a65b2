import { describe, expect, it } from "vitest";
import { UploadProgress } from "./commands/upload-progress.js";
import { runLink } from "./commands/upload.js";

function terminal(isTTY: boolean) {
  const lines: string[] = [];
  return { isTTY, lines, write: (text: string) => lines.push(text) };
}

describe("upload progress", () => {
  it("shows bytes sent, then the seconds the server has been storing the run, then clears", () => {
    const out = terminal(true);
    let now = 0;
    const progress = UploadProgress.forTerminal(10 * 1048576, out, {}, () => now)!;
    now = 500;
    progress.sent(2.5 * 1048576);
    now = 520; // within the redraw interval: not drawn again
    progress.sent(3 * 1048576);
    now = 900;
    progress.sent(10 * 1048576);
    progress.done();
    expect(out.lines).toEqual([
      "\r\x1b[KSending 2.5 MiB of 10.0 MiB (25%)",
      "\r\x1b[KSent 10.0 MiB; the server is reading the reports and storing the run (0 s)",
      "\r\x1b[K",
    ]);
  });

  it("writes nothing off a terminal or in CI", () => {
    expect(UploadProgress.forTerminal(100, terminal(false), {})).toBeUndefined();
    expect(UploadProgress.forTerminal(100, terminal(true), { CI: "true" })).toBeUndefined();
  });
});

describe("the run's link", () => {
  const body = { url: "/test_runs/k1", link: "https://assay.example.com/test_runs/k1" };
  it("is the server's public address", () => {
    expect(runLink(body, new URL("http://10.1.2.3:8080"))).toBe(body.link);
  });
  it("is the address the CLI used when the server only knows its localhost default", () => {
    const local = { ...body, link: "http://localhost:8080/test_runs/k1" };
    expect(runLink(local, new URL("http://assay.ci:8080"))).toBe(
      "http://assay.ci:8080/test_runs/k1",
    );
    expect(runLink(local, new URL("http://127.0.0.1:8080"))).toBe(local.link);
    expect(runLink({ url: body.url }, new URL("http://assay.ci:8080"))).toBe(
      "http://assay.ci:8080/test_runs/k1",
    );
  });
});
