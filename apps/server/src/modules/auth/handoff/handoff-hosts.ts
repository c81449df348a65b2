import type { FastifyRequest } from "fastify";

/**
 * The addresses sign-in may return to: ASSAY_PUBLIC_URL, and the data-harmonization hosts
 * (ASSAY_DATA_HARMONIZATION_HOSTS). A data-harmonization host is reached with the public URL's
 * scheme and port: it is the same server under another name, so only the name varies.
 */
export interface HandoffHosts {
  publicOrigin: string;
  /** Matched against a lower-case host name without port; undefined: no such hosts. */
  dhHosts: RegExp | undefined;
}

/** Letters, digits, dots and hyphens: a DNS name, so nothing else can ride into a URL. */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

const publicHostname = (hosts: HandoffHosts) => new URL(hosts.publicOrigin).hostname;

/** Whether `hostname` (a request's, without port) is a data-harmonization host other than the public one. */
export function isDhHost(hosts: HandoffHosts, hostname: string): boolean {
  const name = hostname.toLowerCase();
  return (
    hosts.dhHosts !== undefined &&
    HOST_NAME.test(name) &&
    name !== publicHostname(hosts) &&
    hosts.dhHosts.test(name)
  );
}

/** The origin of a data-harmonization host: the public URL's scheme and port, its own name. */
export function dhOrigin(hosts: HandoffHosts, hostname: string): string {
  const url = new URL(hosts.publicOrigin);
  return `${url.protocol}//${hostname.toLowerCase()}${url.port ? `:${url.port}` : ""}`;
}

/**
 * The only Origin a cookie-authenticated change may come from for this request: the data-
 * harmonization host's own origin when it was made to one (its session cookie is that host's
 * alone), else ASSAY_PUBLIC_URL.
 */
export function ownOrigin(hosts: HandoffHosts, request: FastifyRequest): string {
  return isDhHost(hosts, request.hostname) ? dhOrigin(hosts, request.hostname) : hosts.publicOrigin;
}

/**
 * A return host asked for at sign-in: "public" for ASSAY_PUBLIC_URL's own name, the host when it
 * is a data-harmonization host, else a sentence saying why it is refused (no open redirect).
 */
export function checkReturnHost(
  hosts: HandoffHosts,
  raw: string,
): { kind: "public" } | { kind: "dh"; host: string } | { kind: "refused"; why: string } {
  const name = raw.toLowerCase();
  if (name === publicHostname(hosts)) return { kind: "public" };
  if (isDhHost(hosts, name)) return { kind: "dh", host: name };
  const shown = HOST_NAME.test(name) ? name : "that address";
  return {
    kind: "refused",
    why:
      `Sign-in does not return to ${shown}: only Assay's public address (ASSAY_PUBLIC_URL) and ` +
      "its data-harmonization hosts (ASSAY_DATA_HARMONIZATION_HOSTS) are accepted. Open Assay " +
      "at one of them and sign in from there.",
  };
}

/**
 * What /auth/login at the public address was asked to return to: nothing special, a data-
 * harmonization host with the browser hash its code will be bound to, or a refusal in words.
 */
export function handoffOfLogin(
  hosts: HandoffHosts,
  query: { return_host?: string; handoff?: string },
): { handoff?: { host: string; browserHash: string } } | { refused: string } {
  if (query.return_host === undefined) return {};
  const checked = checkReturnHost(hosts, query.return_host);
  if (checked.kind === "refused") return { refused: checked.why };
  if (checked.kind === "public") return {};
  if (query.handoff === undefined || !/^[A-Za-z0-9_-]{43}$/.test(query.handoff)) {
    return {
      refused:
        `Sign-in for ${checked.host} must start at ${checked.host} itself: open it and press ` +
        "Sign in there.",
    };
  }
  return { handoff: { host: checked.host, browserHash: query.handoff } };
}
