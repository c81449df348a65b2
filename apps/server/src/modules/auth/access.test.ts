import { describe, expect, it } from "vitest";
import { checkAccess, routeAccess, type Access, type Principal } from "./access.js";

const user: Principal = { kind: "user", id: 1, email: "qa@example.com", name: "QA", admin: false };
const admin: Principal = { ...user, admin: true };
const ingestToken: Principal = { kind: "service_token", name: "ci", scopes: ["ingest"] };
const adminToken: Principal = { kind: "service_token", name: "ops", scopes: ["admin"] };

function outcome(access: Access, principal: Principal | undefined, mode: "public" | "signed-in") {
  try {
    checkAccess(access, principal, mode);
    return 200;
  } catch (error) {
    return (error as { statusCode: number }).statusCode;
  }
}

describe("checkAccess", () => {
  it.each([
    ["open", undefined, "signed-in", 200],
    ["page", undefined, "public", 200],
    ["page", undefined, "signed-in", 401],
    ["page", user, "signed-in", 200],
    ["read", undefined, "public", 200],
    ["read", undefined, "signed-in", 401],
    ["read", ingestToken, "signed-in", 200],
    ["ingest", undefined, "public", 401],
    ["ingest", ingestToken, "public", 200],
    ["ingest", adminToken, "public", 403],
    ["ingest", user, "public", 200],
    ["user", undefined, "public", 401],
    ["user", ingestToken, "public", 403],
    ["user", user, "public", 200],
    ["admin", user, "public", 403],
    ["admin", admin, "public", 200],
    ["admin", adminToken, "public", 200],
  ] as const)("%s for %o in %s mode answers %i", (access, principal, mode, status) => {
    expect(outcome(access, principal, mode)).toBe(status);
  });
});

describe("routeAccess", () => {
  it("makes undeclared reads 'read' and leaves undeclared mutations without a rule", () => {
    expect(routeAccess("GET", undefined)).toBe("read");
    expect(routeAccess(["GET", "HEAD"], undefined)).toBe("read");
    expect(routeAccess("POST", undefined)).toBeUndefined();
    expect(routeAccess("DELETE", "user")).toBe("user");
  });
});
