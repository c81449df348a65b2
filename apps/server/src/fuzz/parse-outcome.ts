import { ResultInputSchema, type ReportFormat } from "@assay/core";
import { AppError } from "../errors.js";
import { classifyUpload } from "../modules/ingest/parsers/index.js";
import { uploadOf } from "../modules/ingest/parsers/test-files.js";
import { reportErrorToAppError, type ReportFile } from "../modules/ingest/parsers/types.js";

/** How many results of each status an upload yielded (or, for Locust, how many endpoint rows). */
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  endpoints: number;
}

export type Outcome =
  | { kind: "parsed"; counts: Counts }
  | { kind: "refused"; status: number; code: string; message: string };

/** A case the fuzzer counts as a bug: anything but exact counts or a clear refusal. */
export class FuzzFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FuzzFailure";
  }
}

/** Per case: a parse that takes longer is a hang; the heap may not grow by more meanwhile. */
export const TIME_LIMIT_MS = 10_000;
export const HEAP_GROWTH_LIMIT_BYTES = 512 * 1024 * 1024;

async function parseAll(files: ReportFile[], format: "auto" | ReportFormat): Promise<Counts> {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, endpoints: 0 };
  // Growth from the case's start: garbage of earlier cases may not have been collected yet.
  const heapLimit = process.memoryUsage().heapUsed + HEAP_GROWTH_LIMIT_BYTES;
  const plan = await classifyUpload(uploadOf(...files), format);
  for await (const report of plan.reports({ warn: () => {} })) {
    for await (const result of report.results) {
      const checked = ResultInputSchema.safeParse(result);
      if (!checked.success) {
        throw new FuzzFailure(
          `a result does not match ResultInputSchema: ${checked.error.message}`,
        );
      }
      // A NUL in a string is fine here: the writer stores it as U+FFFD (ingest/copy.ts).
      counts[checked.data.status]++;
      if (process.memoryUsage().heapUsed > heapLimit) {
        throw new FuzzFailure(`heap grew by more than ${HEAP_GROWTH_LIMIT_BYTES} bytes`);
      }
    }
  }
  if (plan.load) {
    const load = await plan.load();
    counts.endpoints = load.stats.length;
  }
  return counts;
}

/**
 * Reads an upload the way the ingest route does (format detection, then every report's results)
 * and says whether it parsed, with its counts, or was refused with the 4xx the route would send.
 * Any other exception, a hang past TIME_LIMIT_MS or a 4xx that does not name an uploaded file
 * is thrown as a FuzzFailure.
 */
export async function parseOutcome(
  files: ReportFile[],
  format: "auto" | ReportFormat,
): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new FuzzFailure(`no answer within ${TIME_LIMIT_MS} ms`)),
      TIME_LIMIT_MS,
    );
  });
  try {
    const counts = await Promise.race([parseAll(files, format), hang]);
    return { kind: "parsed", counts };
  } catch (thrown) {
    if (thrown instanceof FuzzFailure) throw thrown;
    const error = reportErrorToAppError(thrown);
    if (!(error instanceof AppError) || error.statusCode >= 500) {
      throw new FuzzFailure(`uncaught ${describe(error)}`, { cause: error });
    }
    if (!files.some((file) => error.message.includes(file.name))) {
      throw new FuzzFailure(`the ${error.statusCode} does not name the file: ${error.message}`);
    }
    return {
      kind: "refused",
      status: error.statusCode,
      code: error.code,
      message: error.message,
    };
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}\n${error.stack ?? ""}`;
  return String(error);
}
