/**
 * The dialogs parse their payload with core's schemas (the server's own rules) and show what
 * they say: the messages in the schema's order, and the first message of each field.
 */

export interface Issues {
  /** Every message once, in the schema's order. */
  messages: string[];
  /** The first message of each top-level field. */
  byField: Record<string, string>;
}

export const NO_ISSUES: Issues = { messages: [], byField: {} };

interface ParseResult {
  success: boolean;
  error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}

export function issuesOf(result: ParseResult): Issues {
  if (result.success || !result.error) return NO_ISSUES;
  const messages: string[] = [];
  const byField: Record<string, string> = {};
  for (const issue of result.error.issues) {
    if (!messages.includes(issue.message)) messages.push(issue.message);
    const field = String(issue.path[0] ?? "");
    byField[field] ??= issue.message;
  }
  return { messages, byField };
}
