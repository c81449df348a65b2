import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../test/temporary-folder.js";
import { ConfigError, decodeSecretKey, loadConfig } from "./config.js";
import { deriveKey, loadSecretKey, SECRET_KEY_FILE } from "./secret-key.js";

const base = temporaryFolder("assay-secret-");

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, base);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("sign-in settings", () => {
  it("defaults ASSAY_PUBLIC_URL to localhost on PORT and keeps only the origin", () => {
    expect(loadConfig({ PORT: "9000" }, base).publicUrl).toBe("http://localhost:9000");
    expect(loadConfig({ ASSAY_PUBLIC_URL: "https://Assay.Example.com/" }, base).publicUrl).toBe(
      "https://assay.example.com",
    );
  });

  it("refuses a public URL with a path, a query or credentials", () => {
    for (const bad of [
      "https://x.example/assay",
      "https://x.example/?a=1",
      "https://u:p@x.example",
    ]) {
      expect(problemsOf({ ASSAY_PUBLIC_URL: bad })[0]).toMatch(
        /^ASSAY_PUBLIC_URL: expected the origin/,
      );
    }
  });

  it("reads ASSAY_SECRET_KEY as base64 or hex of 32+ bytes, and never shows a bad one", () => {
    const bytes = randomBytes(32);
    expect(decodeSecretKey(bytes.toString("base64"))).toEqual(bytes);
    expect(decodeSecretKey(bytes.toString("base64url"))).toEqual(bytes);
    expect(decodeSecretKey(bytes.toString("hex"))).toEqual(bytes);
    expect(loadConfig({ ASSAY_SECRET_KEY: bytes.toString("hex") }, base).secretKey).toEqual(bytes);
    const short = "c2hvcnQtc2VjcmV0LXZhbHVl";
    const [problem] = problemsOf({ ASSAY_SECRET_KEY: short, ASSAY_ADMIN_PASSWORD: "tiny" }).sort();
    expect(problem).toMatch(/^ASSAY_ADMIN_PASSWORD: expected a password of 12 to 128 characters/);
    const all = problemsOf({ ASSAY_SECRET_KEY: short, ASSAY_ADMIN_PASSWORD: "tiny" }).join("\n");
    expect(all).toContain("ASSAY_SECRET_KEY: expected 32 or more random bytes");
    expect(all).not.toContain(short);
    expect(all).not.toContain("tiny");
  });

  it("takes the first admin's email in lower case", () => {
    const config = loadConfig({ ASSAY_ADMIN_EMAIL: "Lead@Example.com" }, base);
    expect(config.adminEmail).toBe("lead@example.com");
    expect(problemsOf({ ASSAY_ADMIN_EMAIL: "lead" })[0]).toMatch(
      /^ASSAY_ADMIN_EMAIL: expected an email/,
    );
  });
});

describe("loadSecretKey", () => {
  it("uses ASSAY_SECRET_KEY when set, writing nothing", () => {
    const dataDir = mkdtempSync(path.join(base, "set-"));
    const key = randomBytes(48);
    const config = loadConfig(
      { ASSAY_SECRET_KEY: key.toString("base64"), ASSAY_DATA_DIR: dataDir },
      base,
    );
    expect(loadSecretKey(config)).toEqual(key);
    expect(() => statSync(path.join(dataDir, SECRET_KEY_FILE))).toThrow();
  });

  it("generates one once into the data folder, readable by the owner only", () => {
    const dataDir = path.join(base, "fresh", "data");
    const config = loadConfig({ ASSAY_DATA_DIR: dataDir }, base);
    const first = loadSecretKey(config);
    expect(first).toHaveLength(32);
    const file = path.join(dataDir, SECRET_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretKey(config)).toEqual(first);
    expect(decodeSecretKey(readFileSync(file, "utf8"))).toEqual(first);
  });

  it("refuses a damaged key file instead of making a new key", () => {
    const dataDir = mkdtempSync(path.join(base, "bad-"));
    writeFileSync(path.join(dataDir, SECRET_KEY_FILE), "not a key\n");
    const config = loadConfig({ ASSAY_DATA_DIR: dataDir }, base);
    expect(() => loadSecretKey(config)).toThrow(/does not hold a secret key/);
  });
});

describe("deriveKey", () => {
  it("gives each purpose its own 32-byte key", () => {
    const secret = randomBytes(32);
    const cookies = deriveKey(secret, "oidc-cookies");
    expect(cookies).toHaveLength(32);
    expect(deriveKey(secret, "oidc-cookies")).toEqual(cookies);
    expect(deriveKey(secret, "oidc-client-secret")).not.toEqual(cookies);
    expect(deriveKey(randomBytes(32), "oidc-cookies")).not.toEqual(cookies);
  });
});
