import { CloudWatchLogsClient, GetLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import type { RemoteLog } from "../../../db/schema.js";

/** Events read for a live tail: CodeBuild writes a line an event, so this is the last lines. */
const TAIL_EVENTS = 1_000;
/** A runaway token loop ends here (10,000 events a page: 10 million lines). */
const MAX_PAGES = 1_000;

export interface LogText {
  text: string;
  truncated: boolean;
  bytes: number;
}

/** A remote executor's log store: the tail while the build runs, and the whole log to download. */
export interface RemoteLogReader {
  tail(log: RemoteLog, maxBytes: number): Promise<LogText>;
  all(log: RemoteLog): AsyncIterable<string>;
}

/** CodeBuild's messages end with their newline; others get one, so lines never run together. */
function joined(events: { message?: string }[]): string {
  return events
    .map((event) => event.message ?? "")
    .map((message) => (message.endsWith("\n") ? message : `${message}\n`))
    .join("");
}

/**
 * Reads CodeBuild build logs from CloudWatch Logs (GetLogEvents, JSON 1.1 with X-Amz-Target
 * Logs_20140328.GetLogEvents), with the CodeBuild executor's region and credentials.
 */
export class CloudWatchLogReader implements RemoteLogReader {
  constructor(private readonly client: () => CloudWatchLogsClient) {}

  async tail(log: RemoteLog, maxBytes: number): Promise<LogText> {
    if (log.kind !== "cloudwatch") throw new Error(`not a CloudWatch log: ${log.kind}`);
    const answer = await this.client().send(
      new GetLogEventsCommand({
        logGroupName: log.group,
        logStreamName: log.stream,
        startFromHead: false,
        limit: TAIL_EVENTS,
      }),
    );
    const events = answer.events ?? [];
    const whole = Buffer.from(joined(events), "utf8");
    const text = whole.subarray(Math.max(0, whole.length - maxBytes)).toString("utf8");
    // Earlier events may exist beyond the page read: the tail says so whenever the page was full.
    return {
      text,
      truncated: whole.length > maxBytes || events.length >= TAIL_EVENTS,
      bytes: whole.length,
    };
  }

  /** Every event from the stream's start, page by page (the end is the token coming back). */
  async *all(log: RemoteLog): AsyncGenerator<string> {
    if (log.kind !== "cloudwatch") throw new Error(`not a CloudWatch log: ${log.kind}`);
    let token: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.client().send(
        new GetLogEventsCommand({
          logGroupName: log.group,
          logStreamName: log.stream,
          startFromHead: true,
          nextToken: token,
        }),
      );
      const events = answer.events ?? [];
      if (events.length > 0) yield joined(events);
      if (!answer.nextForwardToken || answer.nextForwardToken === token) return;
      token = answer.nextForwardToken;
    }
  }
}
