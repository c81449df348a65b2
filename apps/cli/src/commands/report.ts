import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { serverTarget } from "../client.js";
import { KnownError } from "../errors.js";

export const reportUsage = `Usage: assay report --run-key KEY [-o FILE] [--screenshots] [--server URL] [--token TOKEN]

Saves a run as one HTML file that opens offline in any browser: its counts, the failures, then
every test with its steps and error (the Test Reports dialog's "Download report").

Options:
  --run-key KEY    the run's key (test_run_key), as printed by \`assay upload\`
  -o, --output F   where to write it (default: assay-KEY.html)
  --screenshots    inline the tests' screenshots (each up to 1 MB, 20 MB in all; the others
                   are named with a link to them in Assay)
  --server URL     Assay server (default: $ASSAY_URL or http://localhost:8080)
  --token TOKEN    a service token, when reading needs sign-in (default: $ASSAY_TOKEN)

Examples:
  npx assay report --run-key nightly-42 -o run.html
  ASSAY_TOKEN=assay_... npx assay report --run-key frontend-20261128T0200Z-1a2b3c --server https://assay.example.com`;

const options = {
  "run-key": { type: "string" },
  output: { type: "string", short: "o" },
  screenshots: { type: "boolean" },
  server: { type: "string" },
  token: { type: "string" },
} as const;

export async function report(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options, allowPositionals: false });
  const key = values["run-key"];
  if (!key) throw new KnownError(`give the run with --run-key KEY.\n\n${reportUsage}`);
  const target = serverTarget(values.server, values.token);
  const url = new URL(`/v1/test-runs/${encodeURIComponent(key)}/report.html`, target.url);
  if (values.screenshots) url.searchParams.set("screenshots", "true");
  let response: Response;
  try {
    response = await fetch(url, {
      headers: target.token ? { authorization: `Bearer ${target.token}` } : {},
    });
  } catch (error) {
    throw new KnownError(`cannot reach ${target.url.origin}: ${(error as Error).message}.`);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as
      { error?: { message?: string } } | undefined;
    throw new KnownError(body?.error?.message ?? `the server answered HTTP ${response.status}.`);
  }
  const file = values.output ?? `assay-${key.replace(/[^A-Za-z0-9._-]/g, "_")}.html`;
  const html = Buffer.from(await response.arrayBuffer());
  await writeFile(file, html);
  console.log(`Wrote ${file} (${(html.length / 1024).toFixed(0)} KB).`);
}
