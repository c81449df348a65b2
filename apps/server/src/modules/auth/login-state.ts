import { open, seal } from "../../secret-box.js";

/**
 * What /auth/login must remember until /auth/callback: state, nonce, PKCE verifier, the issuer
 * the flow started at and where to go afterwards. It travels in a short-lived encrypted cookie
 * rather than a database row, so an anonymous visitor pressing Sign in writes nothing.
 */
export interface LoginState {
  state: string;
  nonce: string;
  verifier: string;
  issuer: string;
  returnTo: string;
  /**
   * When the sign-in was asked for by a data-harmonization host: that host, and the hash of the
   * nonce in its cookie, which the one-time code is bound to (auth/handoff).
   */
  handoff?: { host: string; browserHash: string };
  /** Epoch milliseconds after which the callback is refused. */
  expiresAt: number;
}

/** Ten minutes to type a password, as most providers allow for their own login pages. */
export const LOGIN_STATE_TTL_MS = 10 * 60 * 1000;

const CONTEXT = "assay-login-state";

/** The login state as an encrypted, authenticated cookie value. */
export function sealLoginState(key: Buffer, state: LoginState): string {
  return seal(key, JSON.stringify(state), CONTEXT).toString("base64url");
}

/** The login state in a cookie value, or undefined when it is forged, corrupt or expired. */
export function openLoginState(
  key: Buffer,
  value: string,
  now = Date.now(),
): LoginState | undefined {
  const text = open(key, Buffer.from(value, "base64url"), CONTEXT);
  if (text === undefined) return undefined;
  const state = JSON.parse(text) as LoginState;
  return state.expiresAt > now ? state : undefined;
}

function hasControl(text: string): boolean {
  return [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

/**
 * The path to return to after sign-in: a same-origin relative path, else "/". Absolute URLs,
 * scheme-relative ones (//evil.example), backslashes and control characters are refused, so
 * sign-in can never be used to send a user to another site (RFC 9700 section 4.11).
 */
export function safeReturnTo(raw: unknown, publicOrigin: string): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2000) return "/";
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\") || hasControl(raw)) {
    return "/";
  }
  let url: URL;
  try {
    url = new URL(raw, publicOrigin);
  } catch {
    return "/";
  }
  if (url.origin !== publicOrigin) return "/";
  // Checked again after resolving: "/..//evil.example" and "/%2e%2e//evil.example" resolve to
  // "//evil.example", which a browser reads as another host.
  const path = url.pathname;
  if (path.startsWith("//") || /\\|%5c/i.test(path) || !path.startsWith("/")) return "/";
  // Returning into the sign-in routes themselves would loop.
  if (path.startsWith("/auth/")) return "/";
  const target = `${path}${url.search}${url.hash}`;
  // Whatever survives must mean the same path on this origin when a browser reads it again.
  return new URL(target, publicOrigin).origin === publicOrigin ? target : "/";
}

/**
 * The OAuth state parameter: a random value, then the return path. A callback whose state cookie
 * is gone (expired, another browser) can then still offer to sign in again to the same page.
 * The whole value is compared with the cookie's; the path is checked again when it is read.
 */
export function stateWithReturnTo(random: string, returnTo: string): string {
  return `${random}.${Buffer.from(returnTo).toString("base64url")}`;
}

/** The return path a callback's state parameter carries, or "/". */
export function returnToOfState(state: string | undefined, publicOrigin: string): string {
  const encoded = state?.split(".")[1];
  if (!encoded) return "/";
  return safeReturnTo(Buffer.from(encoded, "base64url").toString("utf8"), publicOrigin);
}

function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(name) ||
    name === "[::1]" ||
    name === "::1"
  );
}

/**
 * How the address a browser used (its Host header) stands to ASSAY_PUBLIC_URL, which the sign-in
 * cookie and the provider's redirect are bound to: the same host, another address the browser
 * can leave for the public one, or one it cannot, because the public URL names the server's
 * own machine (localhost) while the browser is on another.
 */
export function addressOf(
  host: string,
  publicOrigin: string,
): "public" | "other" | "public-unreachable" {
  const publicUrl = new URL(publicOrigin);
  let seen: URL;
  try {
    // Parsed with the public scheme, so that a default port written out compares equal.
    seen = new URL(`${publicUrl.protocol}//${host}`);
  } catch {
    return "other";
  }
  if (seen.host === publicUrl.host) return "public";
  return isLoopback(publicUrl.hostname) && !isLoopback(seen.hostname)
    ? "public-unreachable"
    : "other";
}
