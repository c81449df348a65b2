import http from "node:http";
import https from "node:https";
import { Transform, type Readable } from "node:stream";
import { KnownError, UnexpectedError } from "./errors.js";

export interface ServerTarget {
  url: URL;
  token: string | undefined;
}

/** --server or ASSAY_URL, --token or ASSAY_TOKEN: the same for every command that calls the API. */
export function serverTarget(server: string | undefined, token: string | undefined): ServerTarget {
  const raw = server ?? process.env.ASSAY_URL ?? "http://localhost:8080";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new KnownError(`--server must be a URL such as http://localhost:8080, got "${raw}".`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new KnownError(`--server must be an http(s) URL, got "${raw}".`);
  }
  return { url, token: token ?? process.env.ASSAY_TOKEN };
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** The message of Assay's error body, or a short description of whatever came back. */
export function errorMessage(answer: ApiAnswer): string {
  const body = answer.body as { error?: { message?: string } } | undefined;
  return body?.error?.message ?? `the server answered HTTP ${answer.status}`;
}

/**
 * The body of a command's answer, as `schema` reads it. A refused token, a server failure (with
 * what it said), any other 4xx, and an answer that is not Assay's each throw the error the CLI
 * prints; `what` names the call in the last ("an upload", "an import").
 */
export function answerBody<T>(
  target: ServerTarget,
  answer: ApiAnswer,
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  what: string,
): T {
  if (answer.status === 401) {
    throw new KnownError(`the server refused the token: ${errorMessage(answer)}`);
  }
  if (answer.status >= 500) {
    const said = (answer.body as { error?: { message?: string } } | undefined)?.error?.message;
    throw new UnexpectedError(
      `the server failed (HTTP ${answer.status})${said ? `: ${said}` : ""}; its log says why.`,
    );
  }
  if (answer.status >= 400) throw new KnownError(errorMessage(answer));
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) {
    throw new UnexpectedError(
      `${target.url} answered HTTP ${answer.status}, but not as an Assay server answers ${what}; check --server or ASSAY_URL.`,
    );
  }
  return parsed.data;
}

/**
 * Sends a streamed body and reads the JSON answer. `onProgress` sees the bytes sent so far.
 * Connection failures become KnownErrors that say where the server was expected.
 */
export function sendStream(
  target: ServerTarget,
  path: string,
  body: Readable,
  headers: Record<string, string | number>,
  onProgress?: (sent: number) => void,
): Promise<ApiAnswer> {
  const url = new URL(path, target.url);
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(url, {
      method: "POST",
      headers: {
        ...headers,
        accept: "application/json",
        ...(target.token && { authorization: `Bearer ${target.token}` }),
      },
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (["ECONNREFUSED", "ENOTFOUND", "ECONNRESET", "EPIPE"].includes(error.code ?? "")) {
        reject(
          new KnownError(
            `cannot reach the Assay server at ${target.url.origin} (${error.code}); is it running?`,
          ),
        );
      } else reject(error);
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: response.statusCode ?? 0, body: parsed });
      });
    });
    let sent = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent += chunk.length;
        onProgress?.(sent);
        done(null, chunk);
      },
    });
    body.on("error", (error) => request.destroy(error));
    // A failed attempt stops reading the files; a retry sends a new body.
    request.on("close", () => body.destroy());
    body.pipe(counter).pipe(request);
  });
}
