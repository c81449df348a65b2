import { readAllureResult, type AllureResult } from "./allure-model.js";
import { readInOrder, ReportError, type ReportFile } from "./types.js";

/**
 * Result files up to this many bytes together are kept parsed between planning and converting
 * (about 1.7 times their size on the heap: some 30 MB for a 10k-test folder); the files past it
 * are read and checked again when converted, so memory stays bounded however large the upload.
 */
export const KEEP_PARSED_BYTES = 32 * 1024 * 1024;

/** One attempt of a test, in the order the results are converted. */
export interface Planned {
  file: ReportFile;
  start: number;
  stop: number;
  attempt: number;
  /** The parsed result, when it was kept from planning (see KEEP_PARSED_BYTES). */
  result?: AllureResult | undefined;
}

/**
 * Reads every result file once to number the attempts of each historyId by start (then stop,
 * then file name) and to order all of them. Checks every file before any result is converted, so
 * a broken file refuses the upload whatever its place in the order.
 */
export async function planAttempts(
  files: readonly ReportFile[],
  keepBytes = KEEP_PARSED_BYTES,
): Promise<Planned[]> {
  const groups = new Map<string, Planned[]>();
  const uuids = new Map<string, string>();
  let kept = 0;
  const read = async (file: ReportFile) => ({ file, result: await readAllureResult(file) });
  for await (const { file, result } of readInOrder(files, read)) {
    if (result.uuid) {
      const other = uuids.get(result.uuid);
      if (other) {
        throw new ReportError(
          file.name,
          `uuid ${result.uuid} is also used by ${other}; each result must have its own`,
          { path: "$.uuid" },
        );
      }
      uuids.set(result.uuid, file.name);
    }
    const start = result.start ?? result.stop ?? 0;
    const keep = kept + file.size <= keepBytes;
    if (keep) kept += file.size;
    const planned = {
      file,
      start,
      stop: result.stop ?? start,
      attempt: 0,
      result: keep ? result : undefined,
    };
    // Without a historyId a result cannot be matched with others: it is a test of its own.
    const key = result.historyId ? `history:${result.historyId}` : `file:${file.name}`;
    const group = groups.get(key);
    if (group) group.push(planned);
    else groups.set(key, [planned]);
  }
  const ordered: Planned[] = [];
  for (const group of groups.values()) {
    group.sort(byTime).forEach((planned, attempt) => ordered.push({ ...planned, attempt }));
  }
  return ordered.sort(byTime);
}

/**
 * The planned results, parsed: the kept ones at once, the others read again a few at a time.
 * Each is let go once yielded, so the memory of a converted result can be reclaimed.
 */
export async function* plannedResults(
  plan: Planned[],
): AsyncGenerator<{ planned: Planned; result: AllureResult }> {
  const files = plan.map((p) => p.file);
  const read = async (file: ReportFile, i: number) => plan[i]!.result ?? readAllureResult(file);
  let i = 0;
  for await (const result of readInOrder(files, read)) {
    const planned = plan[i++]!;
    planned.result = undefined;
    yield { planned, result };
  }
}

function byTime(a: Planned, b: Planned): number {
  if (a.start !== b.start) return a.start - b.start;
  if (a.stop !== b.stop) return a.stop - b.stop;
  return a.file.name < b.file.name ? -1 : a.file.name > b.file.name ? 1 : 0;
}
