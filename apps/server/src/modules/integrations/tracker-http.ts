/**
 * The one way Assay calls Jira and Spira: fetch with a time limit on every call, and 429 answers
 * retried after their Retry-After (capped, a few times) so a rate-limited tracker slows a sync
 * down instead of failing it. Errors name the tracker and the path, never a credential.
 */

export class TrackerError extends Error {
  constructor(
    readonly tracker: "Jira" | "Spira",
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = "TrackerError";
  }
}

export interface TrackerHttpOptions {
  tracker: "Jira" | "Spira";
  baseUrl: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** 429 answers retried before giving up. */
  maxRetries: number;
  /** Longest wait for one Retry-After, so a tracker asking for an hour fails the call instead. */
  maxRetryWaitMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds or as an HTTP date; absent or unreadable: 1 s doubled per attempt. */
export function retryDelayMs(header: string | null, attempt: number, now = Date.now()): number {
  const fallback = 1000 * 2 ** attempt;
  if (!header) return fallback;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? fallback : Math.max(0, date - now);
}

/** Jira's {errorMessages, errors} or Spira's plain text, cut short: it goes into a message. */
async function errorText(response: Response): Promise<string> {
  const text = (await response.text().catch(() => "")).slice(0, 500);
  try {
    const body = JSON.parse(text) as { errorMessages?: string[]; errors?: Record<string, string> };
    const parts = [...(body.errorMessages ?? []), ...Object.values(body.errors ?? {})];
    if (parts.length > 0) return parts.join("; ");
  } catch {
    // Spira answers its errors as text.
  }
  return text.trim() || response.statusText;
}

export class TrackerHttp {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: TrackerHttpOptions) {
    this.sleep = options.sleep ?? defaultSleep;
  }

  get origin(): string {
    return new URL(this.options.baseUrl).origin;
  }

  /** A JSON answer of `method path`; any non-2xx is a TrackerError with the tracker's words. */
  async json<T>(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    const { tracker, baseUrl, timeoutMs, maxRetries, maxRetryWaitMs } = this.options;
    const url = new URL(path.replace(/^\//, ""), baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            accept: "application/json",
            ...(body === undefined ? {} : { "content-type": "application/json" }),
            ...this.options.headers,
            ...extraHeaders,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const cause =
          (error as Error).name === "TimeoutError"
            ? `no answer in ${timeoutMs} ms`
            : (error as Error).message;
        throw new TrackerError(
          tracker,
          undefined,
          `${tracker} did not answer ${method} ${url.pathname}: ${cause}.`,
        );
      }
      if (response.status === 429 && attempt < maxRetries) {
        const wait = retryDelayMs(response.headers.get("retry-after"), attempt);
        await response.body?.cancel();
        if (wait > maxRetryWaitMs)
          throw new TrackerError(
            tracker,
            429,
            `${tracker} is rate limiting Assay for ${Math.ceil(wait / 1000)} s; try again later.`,
          );
        await this.sleep(wait);
        continue;
      }
      if (!response.ok) {
        const text = await errorText(response);
        const hint =
          response.status === 401 || response.status === 403
            ? " Check the credentials Assay uses for it."
            : "";
        throw new TrackerError(
          tracker,
          response.status,
          // Spira's texts often end in a full stop already: one, not two.
          `${tracker} answered ${response.status} to ${method} ${url.pathname}: ${text.replace(/\.+$/, "")}.${hint}`,
        );
      }
      return (await response.json()) as T;
    }
  }
}
