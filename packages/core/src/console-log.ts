/** Console log lines longer than this are cut in the results dialog (spec section 9). */
export const CONSOLE_LOG_LINE_LIMIT = 100;

/** A console log as lines, without the empty line a final newline would leave. */
export function consoleLogLines(log: string | null | undefined): string[] {
  if (!log) return [];
  const lines = log.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export interface TruncatedLine {
  /** The first `limit` characters of the line, or all of it. */
  text: string;
  truncated: boolean;
}

/**
 * A line cut at `limit` characters. Characters are code points, so an emoji or a CJK character
 * beyond the BMP is never split in half.
 */
export function truncateLine(line: string, limit = CONSOLE_LOG_LINE_LIMIT): TruncatedLine {
  const chars = Array.from(line);
  if (chars.length <= limit) return { text: line, truncated: false };
  return { text: chars.slice(0, limit).join(""), truncated: true };
}
