import { execFile } from "node:child_process";
import { lookup as systemLookup, type LookupAddress } from "node:dns";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { Socket, type LookupFunction, type NetConnectOpts } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServer as createTlsServer, createSecureContext } from "node:tls";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startReceiver } from "../../../test/webhook-receiver.js";
import { deliverWebhook } from "./webhook.js";
import type { WebhookRefused } from "./webhook-url.js";

/**
 * A delivery connects to the addresses its check resolved, never to what the name resolves to a
 * moment later (DNS rebinding), and keeps TLS on the host name. The resolver stands in for DNS:
 * it answers differently on each question, as a rebinding name server does. Only loopback ever
 * receives traffic: every connection's address is recorded, and one to any other address is
 * stopped before its socket connects.
 */

const PUBLIC = "93.184.215.14";
const ELSEWHERE = "192.0.2.1"; // TEST-NET-1

/** The address each connection was about to be made to, loopback or not. */
let connectingTo: string[] = [];

beforeEach(() => {
  connectingTo = [];
  const connect = Socket.prototype.connect;
  vi.spyOn(Socket.prototype, "connect").mockImplementation(function (
    this: Socket,
    ...args: unknown[]
  ) {
    // net.connect hands its arguments over as one array: [options, listener].
    const [options] = (Array.isArray(args[0]) ? args[0] : args) as [
      NetConnectOpts & { lookup?: LookupFunction },
    ];
    const lookup = options.lookup ?? (systemLookup as LookupFunction);
    options.lookup = (hostname, lookupOptions, callback) =>
      lookup(hostname, lookupOptions, (error, address, family) => {
        const first = Array.isArray(address) ? address[0]?.address : address;
        if (first) connectingTo.push(first);
        if (!error && first && !first.startsWith("127."))
          return callback(Object.assign(new Error("no traffic"), { code: "ETESTSTOP" }), "");
        callback(error, address, family);
      });
    return connect.apply(this, args as Parameters<Socket["connect"]>);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A resolver whose n-th answer is `answers[n]` (the last one repeated), counting questions. */
function rebinding(...answers: string[]) {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    const address = answers[Math.min(asked.length, answers.length - 1)] ?? "";
    asked.push(hostname);
    return [{ address, family: 4 }];
  };
  return { asked, resolve };
}

describe("deliverWebhook pins the checked address", () => {
  it("never reaches a local receiver when the name turns to 127.0.0.1 after the check", async () => {
    const receiver = await startReceiver();
    const dns = rebinding(PUBLIC, "127.0.0.1");
    try {
      const delivery = deliverWebhook(
        `https://rebind.test:${receiver.port}/hook`,
        {},
        { allowPrivate: false, resolve: dns.resolve },
        1_000,
      );
      // The connection went to the public address checked (and was stopped there by the test).
      await expect(delivery).rejects.toThrow("could not reach the webhook's host (ETESTSTOP)");
      expect(connectingTo).toEqual([PUBLIC]);
      expect(dns.asked).toEqual(["rebind.test"]);
      expect(receiver.connections).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it("refuses a name that resolves to a private address at the check, connecting nowhere", async () => {
    const receiver = await startReceiver();
    const dns = rebinding("127.0.0.1");
    try {
      const refused = await deliverWebhook(
        `https://rebind.test:${receiver.port}/hook`,
        {},
        {
          allowPrivate: false,
          resolve: dns.resolve,
        },
      ).then(
        () => expect.fail("the delivery was not refused"),
        (error: unknown) => error as WebhookRefused,
      );
      // The message (kept on the slot, read by anyone) says what to do, not where the name points.
      expect(refused.message).toBe(
        "The webhook's host rebind.test is or resolves to a loopback or private address. Use a public https URL, or set ASSAY_WEBHOOK_ALLOW_PRIVATE=true on the server to allow addresses on your network.",
      );
      expect(refused.detail).toBe("rebind.test resolved to 127.0.0.1");
      expect(connectingTo).toEqual([]);
      expect(receiver.connections).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it("delivers by name to the address checked, whatever the name resolves to afterwards", async () => {
    const receiver = await startReceiver();
    const dns = rebinding("127.0.0.1", ELSEWHERE);
    try {
      // With private addresses allowed, http is taken for a local name only: localhost, resolved
      // here by the rebinding resolver.
      const url = `http://localhost:${receiver.port}/hook`;
      await deliverWebhook(url, { text: "hello" }, { allowPrivate: true, resolve: dns.resolve });
      const [request] = receiver.received;
      expect(request?.body).toEqual({ text: "hello" });
      expect(request?.headers.host).toBe(`localhost:${receiver.port}`);
      expect(connectingTo).toEqual(["127.0.0.1"]);
      expect(dns.asked).toEqual(["localhost"]);
    } finally {
      await receiver.close();
    }
  });

  it("keeps TLS on the host name: SNI names it and an untrusted certificate is refused", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "assay-webhook-tls-"));
    // A self-signed certificate for hook.test, made for this test (no key is kept in the repo).
    await promisify(execFile)("openssl", [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
      ...["-nodes", "-days", "1", "-subj", "/CN=hook.test"],
      ...["-addext", "subjectAltName=DNS:hook.test"],
      ...["-keyout", path.join(folder, "key.pem"), "-out", path.join(folder, "cert.pem")],
    ]);
    const context = createSecureContext({
      key: await readFile(path.join(folder, "key.pem")),
      cert: await readFile(path.join(folder, "cert.pem")),
    });
    const serverNames: string[] = [];
    const server = createTlsServer({
      SNICallback: (name, done) => {
        serverNames.push(name);
        done(null, context);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const dns = rebinding("127.0.0.1", ELSEWHERE);
      const delivery = deliverWebhook(
        `https://hook.test:${port}/hook`,
        {},
        {
          allowPrivate: true,
          resolve: dns.resolve,
        },
      );
      await expect(delivery).rejects.toThrow(
        "could not reach the webhook's host (DEPTH_ZERO_SELF_SIGNED_CERT)",
      );
      expect(serverNames).toEqual(["hook.test"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await rm(folder, { recursive: true, force: true });
    }
  });
});
