/**
 * Links from a backend result's stack trace to its source (spec section 2, Backend results
 * dialog: "the stack with a link to source"): the repository URL of the catalogue, the test's
 * file, and the line of the first stack frame that is in that file.
 */

// V8 "at fn (path:12:5)" / "at path:12:5", Firefox "fn@url:12:5", pytest "path:12: Error".
const FRAME_LOCATION =
  /(?:^|[\s(@])((?:[a-z][a-z0-9+.-]*:\/\/)?(?:[A-Za-z]:)?[^\s()'"@:]+):(\d+)(?::\d+)?/g;
// Python "File "path", line 12".
const PYTHON_FRAME = /File "([^"]+)", line (\d+)/g;

function normalizePath(path: string): string {
  return path
    .replace(/^file:\/\//, "")
    .replace(/\\/g, "/")
    .replace(/^\.\//, "");
}

/** A frame's path names the test's file when one ends with the other at a folder boundary. */
function isSameFile(framePath: string, file: string): boolean {
  const frame = normalizePath(framePath);
  const target = normalizePath(file).replace(/^\/+/, "");
  if (frame === "" || target === "") return false;
  return frame === target || frame.endsWith(`/${target}`) || target.endsWith(`/${frame}`);
}

/**
 * The line of the first (innermost) stack frame in `file`, or null when no frame is in it.
 * Frames of libraries and of the runner are skipped: they are not what the engineer wants to
 * open.
 */
export function stackLineInFile(stack: string, file: string): number | null {
  for (const line of stack.split(/\r?\n/)) {
    for (const pattern of [PYTHON_FRAME, FRAME_LOCATION]) {
      for (const match of line.matchAll(pattern)) {
        const [, path, lineNumber] = match;
        if (path && lineNumber && isSameFile(path, file)) return Number(lineNumber);
      }
    }
  }
  return null;
}

/**
 * The source link of a result: `{repositoryUrl}{file}#L{line}`, without the anchor when the
 * stack has no frame in the file, and null when the result names no file. Each path segment is
 * URL-encoded, so a file name cannot change the link's host or add a query.
 */
export function sourceLink(
  repositoryUrl: string,
  file: string | null | undefined,
  stack: string | null | undefined,
): string | null {
  const path = normalizePath(file?.trim() ?? "").replace(/^\/+/, "");
  if (path === "") return null;
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  const line = stack ? stackLineInFile(stack, path) : null;
  return `${repositoryUrl}${encoded}${line === null ? "" : `#L${line}`}`;
}
