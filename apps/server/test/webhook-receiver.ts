import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";

/** What a webhook receiver got: one entry per request. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * A real HTTP server on 127.0.0.1 standing for a Slack or chat bridge: it records each POST and
 * answers with `answer(n)` for the n-th request (status code, with headers, or "hang" to never
 * answer).
 */
export type Answer = number | "hang" | { status: number; headers: Record<string, string> };

export async function startReceiver(answer: (n: number) => Answer = () => 200) {
  const received: Received[] = [];
  /** When each request arrived (ms since the epoch). */
  const at: number[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      at.push(Date.now());
      const text = Buffer.concat(chunks).toString("utf8");
      received.push({
        path: request.url ?? "",
        headers: request.headers,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      });
      const status = answer(received.length);
      if (status === "hang") hanging.push(response);
      else if (typeof status === "number")
        response.writeHead(status, { "content-type": "text/plain" }).end("ok");
      else
        response
          .writeHead(status.status, { "content-type": "text/plain", ...status.headers })
          .end("ok");
    });
  });
  // Every TCP connection, answered or not (an https request to this http server is no request).
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    at,
    get connections() {
      return connections;
    },
    /** Resolves once `count` requests arrived; rejects after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 60_000): Promise<Received[]> {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until)
          throw new Error(`receiver got ${received.length} of ${count} requests`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
