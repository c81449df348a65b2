import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The browser's two cookies: the session (a signed random id) and the short-lived sign-in
 * state. Both are httpOnly and SameSite=Lax (the callback arrives as a top-level navigation from
 * the provider, which Lax still lets through). Over https they are Secure and __Host- prefixed:
 * the browser then refuses them from any subdomain or plain-http page.
 */
export interface CookieSettings {
  secure: boolean;
  session: string;
  login: string;
  /** On a data-harmonization host: the nonce binding a sign-in code to this browser (auth/handoff). */
  handoff: string;
}

/** Cookie names and flags for the scheme of ASSAY_PUBLIC_URL. */
export function cookieSettings(publicUrl: string): CookieSettings {
  const secure = new URL(publicUrl).protocol === "https:";
  const prefix = secure ? "__Host-" : "";
  return {
    secure,
    session: `${prefix}assay_session`,
    login: `${prefix}assay_login`,
    handoff: `${prefix}assay_handoff`,
  };
}

function base(settings: CookieSettings): CookieSerializeOptions {
  return { path: "/", httpOnly: true, sameSite: "lax", secure: settings.secure };
}

/** Sets the signed session cookie, expiring with the session's absolute lifetime. */
export function setSessionCookie(
  reply: FastifyReply,
  settings: CookieSettings,
  id: string,
  expires: Date,
): void {
  reply.setCookie(settings.session, id, { ...base(settings), expires, signed: true });
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(settings.session, base(settings));
}

/** Sets the sign-in state cookie for the time a sign-in may take. */
export function setLoginCookie(
  reply: FastifyReply,
  settings: CookieSettings,
  value: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(settings.login, value, { ...base(settings), maxAge: maxAgeSeconds });
}

/** Drops the sign-in state cookie: it is good for one callback only. */
export function clearLoginCookie(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(settings.login, base(settings));
}

/** Sets (value) or drops (undefined) the handoff nonce cookie of a data-harmonization host. */
export function setHandoffCookie(
  reply: FastifyReply,
  settings: CookieSettings,
  value: string | undefined,
  maxAgeSeconds = 0,
): void {
  if (value === undefined) reply.clearCookie(settings.handoff, base(settings));
  else reply.setCookie(settings.handoff, value, { ...base(settings), maxAge: maxAgeSeconds });
}

/** The session id of a correctly signed session cookie, or undefined (absent or forged). */
export function sessionIdOf(request: FastifyRequest, settings: CookieSettings): string | undefined {
  const raw = request.cookies[settings.session];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}
