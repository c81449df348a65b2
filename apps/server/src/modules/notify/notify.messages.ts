import { formatDuration, type NotifyChannel } from "@assay/core";

/**
 * What a notification says, and how each channel carries it: Slack's Block Kit, a Teams
 * Adaptive Card (as a workflow webhook's "message"), an email's HTML and text parts, and
 * Assay's own JSON for a generic webhook. Text from reports is escaped for each medium.
 */

export interface FailureGroup {
  /** The group's cause (an error's first line), or the test's name when it stands alone. */
  title: string;
  tests: string[];
}

export interface RunMessage {
  ruleName: string;
  /** Why it is sent: the run failed, passed, or passed after a failed run. */
  outcome: "failed" | "passed" | "recovered";
  run: { key: string; name: string; family: string; branch: string | null; site: string | null };
  counts: { total: number; passed: number; failed: number; skipped: number; flaky: number };
  durationMs: number;
  /** At most NOTIFY_TOP_FAILURES, each with its tests. */
  failures: FailureGroup[];
  /** "New failures" under an "on new failures" rule (only those are listed), else "Top failures". */
  failuresTitle: "Top failures" | "New failures";
  url: string;
}

const OUTCOME_WORD = { failed: "FAILED", passed: "PASSED", recovered: "RECOVERED" } as const;
const OUTCOME_MARK = { failed: "❌", passed: "✅", recovered: "✅" } as const;

export function headline(message: RunMessage): string {
  const { counts } = message;
  const tail =
    counts.failed > 0 ? `${counts.failed} of ${counts.total} failed` : `${counts.total} passed`;
  return `${OUTCOME_WORD[message.outcome]}: ${message.run.name} (${tail})`;
}

function countsLine(message: RunMessage): string {
  const { counts } = message;
  return `${counts.total} tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
}

function context(message: RunMessage): string {
  const { run } = message;
  return [run.family, run.branch && `branch ${run.branch}`, run.site && `site ${run.site}`]
    .filter(Boolean)
    .join(" · ");
}

/** Slack mrkdwn: &, < and > escaped in text Assay did not write. */
const slackText = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const cut = (value: string, max: number) =>
  value.length > max ? `${value.slice(0, max - 1)}…` : value;

/** Each group's line, then its tests' lines one level in (`indent`, a sub-list's mark). */
function failureLines(
  message: RunMessage,
  escape: (v: string) => string,
  bullet: string,
  indent: string,
) {
  return message.failures.map((group) => {
    const tests = group.tests.map((test) => `${indent}${escape(cut(test, 150))}`).join("\n");
    return `${bullet} ${escape(cut(group.title, 200))}${tests ? `\n${tests}` : ""}`;
  });
}

export function slackPayload(message: RunMessage): object {
  const blocks: object[] = [
    {
      type: "header",
      text: {
        type: "plain_text",
        text: cut(`${OUTCOME_MARK[message.outcome]} ${headline(message)}`, 150),
      },
    },
    {
      type: "section",
      fields: [
        { type: "mrkdwn", text: `*Passed*\n${message.counts.passed}` },
        { type: "mrkdwn", text: `*Failed*\n${message.counts.failed}` },
        { type: "mrkdwn", text: `*Skipped*\n${message.counts.skipped}` },
        { type: "mrkdwn", text: `*Duration*\n${formatDuration(message.durationMs)}` },
      ],
    },
    {
      type: "context",
      elements: [
        { type: "mrkdwn", text: slackText(`${context(message)} · rule ${message.ruleName}`) },
      ],
    },
  ];
  if (message.failures.length > 0) {
    // Slack keeps no leading spaces: em spaces set the tests in under their group.
    const lines = failureLines(message, slackText, "•", "\u2003\u2003◦ ");
    const text = `*${message.failuresTitle}*\n${lines.join("\n")}`;
    blocks.push({ type: "section", text: { type: "mrkdwn", text: cut(text, 3000) } });
  }
  blocks.push({
    type: "actions",
    elements: [
      { type: "button", text: { type: "plain_text", text: "Open in Assay" }, url: message.url },
    ],
  });
  // The notification's text (and what shows without blocks) is mrkdwn too.
  return { text: `${slackText(headline(message))} — ${message.url}`, blocks };
}

/**
 * Text from reports and names in a card: a TextBlock reads Markdown (a test named `__init__`
 * would turn bold, "- x" a list), a RichTextBlock's TextRun shows text as it is.
 */
const plain = (text: string, run: object = {}, block: object = {}) => ({
  type: "RichTextBlock",
  ...block,
  inlines: [{ type: "TextRun", text, ...run }],
});

export function teamsPayload(message: RunMessage): object {
  const body: object[] = [
    plain(headline(message), {
      size: "Large",
      weight: "Bolder",
      color: message.outcome === "failed" ? "Attention" : "Good",
    }),
    plain(
      `${context(message)} · rule ${message.ruleName}`,
      { isSubtle: true },
      { spacing: "None" },
    ),
    {
      type: "FactSet",
      facts: [
        { title: "Passed", value: String(message.counts.passed) },
        { title: "Failed", value: String(message.counts.failed) },
        { title: "Skipped", value: String(message.counts.skipped) },
        { title: "Duration", value: formatDuration(message.durationMs) },
      ],
    },
  ];
  if (message.failures.length > 0) {
    body.push({
      type: "TextBlock",
      weight: "Bolder",
      text: message.failuresTitle,
      spacing: "Medium",
    });
    for (const group of message.failures) {
      body.push(plain(cut(group.title, 200), { weight: "Bolder" }, { spacing: "Small" }));
      for (const test of group.tests)
        body.push(plain(`• ${cut(test, 150)}`, {}, { spacing: "None" }));
    }
  }
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          msteams: { width: "Full" },
          body,
          actions: [{ type: "Action.OpenUrl", title: "Open in Assay", url: message.url }],
        },
      },
    ],
  };
}

export function webhookPayload(message: RunMessage): object {
  return { event: "run.finished", ...message };
}

const html = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function emailParts(message: RunMessage): { subject: string; text: string; html: string } {
  const text = [
    headline(message),
    context(message),
    countsLine(message),
    `Duration: ${formatDuration(message.durationMs)}`,
    ...(message.failures.length
      ? ["", `${message.failuresTitle}:`, ...failureLines(message, (v) => v, "-", "    - ")]
      : []),
    "",
    `Open in Assay: ${message.url}`,
    `(rule: ${message.ruleName})`,
  ].join("\n");
  const colour = message.outcome === "failed" ? "#c62828" : "#2e7d32";
  const cell = 'style="padding:4px 16px 4px 0;font:14px Arial,sans-serif"';
  const big = 'style="font-size:16px;white-space:nowrap"';
  const failures = message.failures
    .map(
      (group) =>
        `<li style="margin:0 0 8px"><strong>${html(cut(group.title, 200))}</strong>` +
        (group.tests.length
          ? `<ul>${group.tests.map((t) => `<li>${html(cut(t, 150))}</li>`).join("")}</ul>`
          : "") +
        "</li>",
    )
    .join("");
  // Inline styles only (mail clients drop <style>); long names wrap instead of widening a phone's.
  const body = `<!doctype html><html><body style="margin:0;padding:16px 8px;background:#f5f5f5">
<div style="max-width:640px;margin:0 auto;background:#fff;border:1px solid #ddd;border-radius:6px;padding:20px;font:14px Arial,sans-serif;color:#222;overflow-wrap:anywhere;word-break:break-word">
<h1 style="margin:0 0 4px;font-size:20px;color:${colour}">${html(headline(message))}</h1>
<p style="margin:0 0 16px;color:#666">${html(context(message))}</p>
<table role="presentation" style="border-collapse:collapse;margin:0 0 16px"><tr>
<td ${cell}>Passed<br><strong ${big}>${message.counts.passed}</strong></td>
<td ${cell}>Failed<br><strong ${big}>${message.counts.failed}</strong></td>
<td ${cell}>Skipped<br><strong ${big}>${message.counts.skipped}</strong></td>
<td ${cell}>Duration<br><strong ${big}>${html(formatDuration(message.durationMs))}</strong></td></tr></table>
${failures ? `<h2 style="font-size:16px;margin:0 0 8px">${message.failuresTitle}</h2><ul style="padding-left:20px">${failures}</ul>` : ""}
<p style="margin:16px 0 0"><a href="${html(message.url)}" style="background:#1565c0;color:#fff;padding:8px 14px;border-radius:4px;text-decoration:none">Open in Assay</a></p>
<p style="margin:16px 0 0;color:#888;font-size:12px">Sent by Assay for the rule “${html(message.ruleName)}”.</p>
</div></body></html>`;
  return { subject: `[Assay] ${headline(message)}`, text, html: body };
}

export const PAYLOADS: Record<Exclude<NotifyChannel, "email">, (m: RunMessage) => object> = {
  slack: slackPayload,
  teams: teamsPayload,
  webhook: webhookPayload,
};
