import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openLoginState, safeReturnTo, sealLoginState, type LoginState } from "./login-state.js";
import { open, seal } from "../../secret-box.js";
import { cookieSettings } from "./session-cookie.js";

const ORIGIN = "https://assay.example.com";

describe("safeReturnTo", () => {
  it.each([
    ["/test_runs/run-7/42?be=1", "/test_runs/run-7/42?be=1"],
    ["/dashboard#top", "/dashboard#top"],
    ["https://evil.example/", "/"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["\\\\evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["/builds\r\nSet-Cookie: x=1", "/"],
    ["/auth/login", "/"],
    ["", "/"],
    [undefined, "/"],
  ])("%j becomes %j", (raw, expected) => {
    expect(safeReturnTo(raw, ORIGIN)).toBe(expected);
  });
});

describe("the sign-in state cookie", () => {
  const key = randomBytes(32);
  const state: LoginState = {
    state: "s",
    nonce: "n",
    verifier: "v",
    issuer: `${ORIGIN}/oidc`,
    returnTo: "/builds",
    expiresAt: Date.now() + 60_000,
  };

  it("opens with its key before it expires, and only then", () => {
    const value = sealLoginState(key, state);
    expect(openLoginState(key, value)).toEqual(state);
    expect(openLoginState(randomBytes(32), value)).toBeUndefined();
    expect(openLoginState(key, value, state.expiresAt + 1)).toBeUndefined();
    expect(openLoginState(key, `${value.slice(0, -4)}AAAA`)).toBeUndefined();
    expect(openLoginState(key, "garbage")).toBeUndefined();
  });
});

describe("secret-box", () => {
  it("opens only with the same key and context", () => {
    const key = randomBytes(32);
    const sealed = seal(key, "hunter2", "user:1");
    expect(open(key, sealed, "user:1")).toBe("hunter2");
    expect(open(key, sealed, "user:2")).toBeUndefined();
    expect(open(randomBytes(32), sealed, "user:1")).toBeUndefined();
    expect(sealed.toString("latin1")).not.toContain("hunter2");
  });
});

describe("cookie names", () => {
  it("are Secure and __Host- prefixed over https, plain over http", () => {
    expect(cookieSettings("https://assay.example.com")).toEqual({
      secure: true,
      session: "__Host-assay_session",
      login: "__Host-assay_login",
    });
    expect(cookieSettings("http://localhost:8080")).toEqual({
      secure: false,
      session: "assay_session",
      login: "assay_login",
    });
  });
});
