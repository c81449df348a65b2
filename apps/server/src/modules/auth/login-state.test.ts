import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  addressOf,
  openLoginState,
  returnToOfState,
  safeReturnTo,
  sealLoginState,
  stateWithReturnTo,
  type LoginState,
} from "./login-state.js";
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
    // Forms that only become another host once the path is resolved or decoded.
    ["/..//evil.example/x", "/"],
    ["/../..//evil.example", "/"],
    ["/%2e%2e//evil.example", "/"],
    ["/%2E%2E//evil.example", "/"],
    ["/.%2e//evil.example", "/"],
    ["/./..//evil.example", "/"],
    ["/a/../..//evil.example", "/"],
    ["/%2e%2e/%2fevil.example", "/%2fevil.example"],
    ["/%5c%5cevil.example", "/"],
    ["\\/evil.example", "/"],
    ["/\\/evil.example", "/"],
    ["/\tevil.example", "/"],
    ["/\t/evil.example", "/"],
    ["/\n/evil.example", "/"],
    ["/\r//evil.example", "/"],
    ["//@evil.example", "/"],
    ["/@evil.example", "/@evil.example"],
    ["https://assay.example.com@evil.example/", "/"],
    ["%2f%2fevil.example", "/"],
    ["/%09/evil.example", "/%09/evil.example"],
    ["/builds/../dashboard", "/dashboard"],
    ["", "/"],
    [undefined, "/"],
  ])("%j becomes %j", (raw, expected) => {
    expect(safeReturnTo(raw, ORIGIN)).toBe(expected);
  });
});

describe("the state parameter", () => {
  it("carries the return path, checked again when it is read", () => {
    const state = stateWithReturnTo("r4nd0m", "/test_runs/run-7?be=1#x");
    expect(state.startsWith("r4nd0m.")).toBe(true);
    expect(returnToOfState(state, ORIGIN)).toBe("/test_runs/run-7?be=1#x");
    expect(returnToOfState(stateWithReturnTo("r", "//evil.example"), ORIGIN)).toBe("/");
    expect(returnToOfState(stateWithReturnTo("r", "https://evil.example/"), ORIGIN)).toBe("/");
    expect(returnToOfState("forged-state", ORIGIN)).toBe("/");
    expect(returnToOfState(undefined, ORIGIN)).toBe("/");
  });
});

describe("addressOf", () => {
  it.each([
    ["localhost:8080", "http://localhost:8080", "public"],
    ["LOCALHOST:8080", "http://localhost:8080", "public"],
    ["assay.example.com", "https://assay.example.com", "public"],
    ["assay.example.com:443", "https://assay.example.com", "public"],
    ["127.0.0.1:8080", "http://localhost:8080", "other"],
    ["[::1]:8080", "http://localhost:8080", "other"],
    ["localhost:8080", "http://127.0.0.1:8080", "other"],
    ["127.0.0.1:8080", "https://assay.example.com", "other"],
    ["qa-box.lan:8080", "http://qa-box.example.com:8080", "other"],
    ["qa-box.lan:8080", "http://localhost:8080", "public-unreachable"],
    ["192.168.1.20:8080", "http://127.0.0.1:8080", "public-unreachable"],
  ])("%s with ASSAY_PUBLIC_URL %s is %s", (host, publicOrigin, expected) => {
    expect(addressOf(host, publicOrigin)).toBe(expected);
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
      handoff: "__Host-assay_handoff",
    });
    expect(cookieSettings("http://localhost:8080")).toEqual({
      secure: false,
      session: "assay_session",
      login: "assay_login",
      handoff: "assay_handoff",
    });
  });
});
