import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { GateAnswerSchema, type GateAnswer } from "@assay/core";
import { answerBody, serverTarget, type ApiAnswer, type ServerTarget } from "../client.js";
import { KnownError } from "../errors.js";

export const gateUsage = `Usage: assay gate --run-key KEY [--max-new N] [--max-to-investigate N] [--max-failed N]
                  [--wait SECONDS] [--server URL] [--token TOKEN]

The quality gate of a run (GET /v1/runs/{key}/gate): prints one line per limit and exits 0 when
the run is within every limit given, 1 when not. A new failure is one whose cause (fingerprint)
was first seen in this run; to investigate, one nobody (and no earlier decision) has classified.
So a pipeline can fail only on new, unexplained failures.

Options:
  --run-key KEY             the run (printed by \`assay upload\`)
  --max-new N               at most N failures of causes first seen in this run
  --max-to-investigate N    at most N failures still to investigate
  --max-failed N            at most N failed tests
  --wait SECONDS            wait up to SECONDS for the run to exist and finish (a live run)
  --server URL              Assay server (default: $ASSAY_URL or http://localhost:8080)
  --token TOKEN             service token (default: $ASSAY_TOKEN)

Examples:
  npx assay gate --run-key nightly-42 --max-new 0
  npx assay gate --run-key "$RUN_KEY" --max-new 0 --max-to-investigate 5 --wait 300`;

const options = {
  "run-key": { type: "string" },
  "max-new": { type: "string" },
  "max-to-investigate": { type: "string" },
  "max-failed": { type: "string" },
  wait: { type: "string" },
  server: { type: "string" },
  token: { type: "string" },
} as const;

function count(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value))
    throw new KnownError(`--${name} must be a whole number, got "${value}".`);
  return value;
}

async function ask(target: ServerTarget, path: string): Promise<ApiAnswer> {
  const url = new URL(path, target.url);
  try {
    const response = await fetch(url, {
      headers: {
        accept: "application/json",
        ...(target.token && { authorization: `Bearer ${target.token}` }),
      },
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  } catch {
    throw new KnownError(`cannot reach the Assay server at ${target.url.origin}; is it running?`);
  }
}

const POLL_MS = 2000;

export async function gate(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true });
  if (positionals.length > 0)
    throw new KnownError(`unexpected "${positionals[0]}".\n\n${gateUsage}`);
  const key = values["run-key"];
  if (!key) throw new KnownError(`give the run with --run-key KEY.\n\n${gateUsage}`);
  const query = new URLSearchParams();
  const limits: [string, string][] = [
    ["max-new", "max_new"],
    ["max-to-investigate", "max_to_investigate"],
    ["max-failed", "max_failed"],
  ];
  for (const [option, param] of limits) {
    const value = count(option, values[option as keyof typeof values] as string | undefined);
    if (value !== undefined) query.set(param, value);
  }
  const waitSeconds = Number(count("wait", values.wait) ?? 0);
  const target = serverTarget(values.server, values.token);
  const path = `/v1/runs/${encodeURIComponent(key)}/gate${query.size ? `?${query}` : ""}`;
  const deadline = Date.now() + waitSeconds * 1000;
  let answer: GateAnswer | undefined;
  for (;;) {
    const reply = await ask(target, path);
    const waiting =
      reply.status === 404 ||
      (reply.status === 200 && (reply.body as GateAnswer).runState === "open");
    if (!waiting || Date.now() + POLL_MS > deadline) {
      answer = answerBody(target, reply, GateAnswerSchema, "a gate");
      break;
    }
    await sleep(POLL_MS);
  }
  if (answer.runState === "open")
    console.log(`Run ${key} is still open: judged on its results so far.`);
  for (const reason of answer.reasons) console.log(reason);
  if (!answer.passed) throw new KnownError(`the quality gate failed for run ${key}.`);
  console.log(`Quality gate passed for run ${key}.`);
}
