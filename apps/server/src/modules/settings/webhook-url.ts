import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/**
 * Where a schedule's webhook may point. By default only https to public addresses: a webhook is
 * a request the server makes on a user's behalf, so loopback, private, link-local (cloud
 * metadata) and other special ranges are refused, both when the URL is saved (a literal
 * address, localhost) and before each delivery (what the name resolves to then; the delivery
 * connects to exactly the addresses checked, see webhook.ts).
 * ASSAY_WEBHOOK_ALLOW_PRIVATE=true allows those addresses, and http to them.
 */

export interface WebhookPolicy {
  allowPrivate: boolean;
  /** How a host name is resolved before a delivery: the system's resolver unless a test stands in for DNS. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

const systemResolve = (hostname: string) => lookup(hostname, { all: true });

/** Whether an IP address is a public one ("unicast" in ipaddr.js' range names). */
function isPublicAddress(address: string): boolean {
  return ipaddr.process(address).range() === "unicast";
}

function literalAddress(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return ipaddr.isValid(bare) ? bare : undefined;
}

function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

const NOT_PUBLIC = (host: string) =>
  `The webhook's host ${host} is or resolves to a loopback or private address. Use a public https URL, or set ASSAY_WEBHOOK_ALLOW_PRIVATE=true on the server to allow addresses on your network.`;

/** Why a webhook URL is refused when saved, or undefined when it may be used. */
export function webhookUrlProblem(value: string, policy: WebhookPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `The webhook URL "${value}" is not a URL: give one such as https://hooks.slack.com/services/…`;
  }
  if (url.username || url.password) {
    return "The webhook URL must not carry a user name or password: put a token in its path or query, as Slack does.";
  }
  const address = literalAddress(url.hostname);
  const local = isLocalName(url.hostname) || (address !== undefined && !isPublicAddress(address));
  if (local && !policy.allowPrivate) return NOT_PUBLIC(url.hostname);
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && local && policy.allowPrivate) return undefined;
  return `The webhook URL must use https (it was ${url.protocol.replace(":", "")}).`;
}

/**
 * Checked again before each delivery, against what the name resolves to now: a public name may
 * later point inside the network. Returns the addresses checked, which the delivery must connect
 * to (resolving the name again would reopen the gap: DNS rebinding). Throws with the reason when
 * the URL may not be used.
 */
export async function checkedAddresses(
  value: string,
  policy: WebhookPolicy,
): Promise<LookupAddress[]> {
  const problem = webhookUrlProblem(value, policy);
  if (problem) throw new Error(problem);
  const { hostname } = new URL(value);
  const literal = literalAddress(hostname);
  if (literal)
    return [{ address: literal, family: ipaddr.parse(literal).kind() === "ipv6" ? 6 : 4 }];
  const addresses = await (policy.resolve ?? systemResolve)(hostname).catch((error: unknown) => {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new Error(`could not resolve the webhook's host ${hostname} (${code})`, { cause: error });
  });
  if (addresses.length === 0) throw new Error(`The webhook's host ${hostname} has no address.`);
  const inside = addresses.find((entry) => !isPublicAddress(entry.address));
  // The slot's message is read by anyone who can read schedules: it must not map the network,
  // so the address the name resolved to goes to the server log only.
  if (inside && !policy.allowPrivate)
    throw new WebhookRefused(NOT_PUBLIC(hostname), `${hostname} resolved to ${inside.address}`);
  return addresses;
}

/** A webhook refused before any connection; `detail` (what the name resolved to) is for the log. */
export class WebhookRefused extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = "WebhookRefused";
  }
}

/**
 * What a non-administrator sees of a webhook URL: its origin only. The path and query of a
 * webhook are its secret (Slack's token is in the path).
 */
export function maskWebhookUrl(value: string): string {
  try {
    return `${new URL(value).origin}/…`;
  } catch {
    return "…";
  }
}
