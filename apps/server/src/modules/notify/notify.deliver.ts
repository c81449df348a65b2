import nodemailer from "nodemailer";
import type { NotifyEmail } from "@assay/core";
import { postWebhook } from "../settings/webhook.js";
import { checkedAddresses, type WebhookPolicy } from "../settings/webhook-url.js";

/**
 * One delivery attempt and what follows it: sent, retried later (429, 5xx, a timeout, an SMTP
 * 4xx: the receiver may take it later) or failed for good (another 4xx, an SMTP 5xx, a refused
 * address). Messages name the status, never the URL (its path is the secret).
 */

export type Attempt =
  | { kind: "sent"; message: string }
  | { kind: "retry"; message: string; retryAfterSeconds?: number }
  | { kind: "failed"; message: string };

/** Attempts before a delivery is given up as failed. */
export const MAX_ATTEMPTS = 6;
const BASE_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 3600;
/** A Retry-After longer than this is not waited for: the message would be stale. */
const MAX_RETRY_AFTER_SECONDS = 6 * 3600;

/** Retry-After in seconds: a number of seconds or an HTTP date; undefined when unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/**
 * The wait before attempt `attempts + 1`: exponential from 30 s, at most an hour, and never
 * shorter than what the receiver asked for in Retry-After.
 */
export function retryDelaySeconds(attempts: number, retryAfterSeconds?: number): number {
  const backoff = Math.min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 2 ** Math.max(0, attempts - 1));
  if (retryAfterSeconds === undefined) return backoff;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(retryAfterSeconds, 1));
}

export async function deliverHttp(
  url: string,
  payload: object,
  policy: WebhookPolicy,
): Promise<Attempt> {
  let answer;
  try {
    answer = await postWebhook(url, payload, policy);
  } catch (error) {
    const message = (error as Error).message;
    // A refused address is a setting to fix, not a moment to wait out.
    if (/loopback or private|must use https|not a URL|user name/.test(message))
      return { kind: "failed", message };
    return { kind: "retry", message };
  }
  const { status } = answer;
  if (status >= 200 && status < 300) return { kind: "sent", message: `HTTP ${status}` };
  const message = `the receiver answered HTTP ${status}`;
  if (status === 429 || status >= 500 || status === 408)
    return { kind: "retry", message, retryAfterSeconds: parseRetryAfter(answer.retryAfter) };
  return { kind: "failed", message };
}

export interface EmailParts {
  subject: string;
  text: string;
  html: string;
}

/** Sends through the rule's SMTP server, connecting to the address checked (as webhooks do). */
export async function deliverEmail(
  email: NotifyEmail,
  password: string | undefined,
  parts: EmailParts,
  policy: WebhookPolicy,
): Promise<Attempt> {
  let address: string;
  try {
    // checkedAddresses throws when there is none.
    address = (await checkedAddresses(`https://${email.host}/`, policy))[0]!.address;
  } catch (error) {
    return { kind: "failed", message: (error as Error).message.replace(/webhook's/g, "SMTP") };
  }
  const transport = nodemailer.createTransport({
    host: address,
    port: email.port,
    secure: email.secure,
    auth: email.user ? { user: email.user, pass: password ?? "" } : undefined,
    tls: { servername: email.host },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    const info = await transport.sendMail({ from: email.from, to: email.to, ...parts });
    return { kind: "sent", message: `accepted for ${info.accepted.length} recipient(s)` };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    const message = `the SMTP server refused: ${code ?? (error as { code?: string }).code ?? "error"}`;
    if (code !== undefined && code >= 500) return { kind: "failed", message };
    return { kind: "retry", message };
  } finally {
    transport.close();
  }
}
