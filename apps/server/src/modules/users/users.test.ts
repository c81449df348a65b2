import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { generatePassword, hashPassword, passwordMatches } from "./password.js";
import {
  createUser,
  DEFAULT_ADMIN_EMAIL,
  ensureFirstAdmin,
  findByEmail,
  verifyPassword,
} from "./users.service.js";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe("passwords", () => {
  it("are stored as salted scrypt hashes with their parameters", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await hashPassword("correct horse battery")).not.toBe(hash);
    expect(await passwordMatches("correct horse battery", hash)).toBe(true);
    expect(await passwordMatches("correct horse batterY", hash)).toBe(false);
    expect(await passwordMatches("correct horse battery", undefined)).toBe(false);
    expect(await passwordMatches("correct horse battery", "garbage")).toBe(false);
  });

  it("are generated as four groups of five unambiguous characters", () => {
    const passwords = new Set(Array.from({ length: 50 }, generatePassword));
    expect(passwords.size).toBe(50);
    for (const password of passwords) {
      expect(password).toMatch(/^[a-hj-km-np-z2-9]{5}(-[a-hj-km-np-z2-9]{5}){3}$/);
    }
  });
});

describe("users", () => {
  it("are created with a lower-case email, and found in any case", async () => {
    const created = await createUser(database.db.kysely, {
      email: " Mia@Example.com ",
      name: "Mia",
      password: "a password long enough",
    });
    expect(created.user.email).toBe("mia@example.com");
    expect(created.generatedPassword).toBeUndefined();
    expect((await findByEmail(database.db.kysely, "MIA@example.com"))?.id).toBe(created.user.id);
    expect(
      await verifyPassword(database.db.kysely, "mia@EXAMPLE.com", "a password long enough"),
    ).toMatchObject({
      email: "mia@example.com",
    });
    expect(await verifyPassword(database.db.kysely, "mia@example.com", "wrong")).toBeUndefined();
    const { rows } = await database.db.pool.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE email = 'mia@example.com'",
    );
    expect(rows[0]?.password_hash).not.toContain("a password long enough");
  });

  it("refuses bad emails, names and short passwords", async () => {
    const db = database.db.kysely;
    await expect(createUser(db, { email: "nope", name: "X" })).rejects.toThrow(/not an email/);
    await expect(createUser(db, { email: "x@example.com", name: " " })).rejects.toThrow(/1 to 100/);
    await expect(
      createUser(db, { email: "x@example.com", name: "X", password: "short" }),
    ).rejects.toThrow(/12 to 128 characters/);
  });
});

describe("ensureFirstAdmin", () => {
  it("makes one admin on an install without users, then nothing", async () => {
    const fresh = await createTestDatabase();
    try {
      const settings = { adminEmail: undefined, adminPassword: undefined };
      const made = await Promise.all([
        ensureFirstAdmin(fresh.db.kysely, settings),
        ensureFirstAdmin(fresh.db.kysely, settings),
      ]);
      const admins = made.filter((m) => m !== undefined);
      expect(admins).toHaveLength(1);
      expect(admins[0]?.email).toBe(DEFAULT_ADMIN_EMAIL);
      const password = admins[0]?.generatedPassword as string;
      const admin = await verifyPassword(fresh.db.kysely, DEFAULT_ADMIN_EMAIL, password);
      expect(admin?.is_admin).toBe(true);
      expect(await ensureFirstAdmin(fresh.db.kysely, settings)).toBeUndefined();
    } finally {
      await fresh.drop();
    }
  });

  it("uses ASSAY_ADMIN_EMAIL and ASSAY_ADMIN_PASSWORD when set, and prints no password", async () => {
    const fresh = await createTestDatabase();
    try {
      const made = await ensureFirstAdmin(fresh.db.kysely, {
        adminEmail: "lead@example.com",
        adminPassword: "the chosen admin password",
      });
      expect(made).toEqual({ email: "lead@example.com", generatedPassword: undefined });
      const admin = await verifyPassword(
        fresh.db.kysely,
        "lead@example.com",
        "the chosen admin password",
      );
      expect(admin?.is_admin).toBe(true);
    } finally {
      await fresh.drop();
    }
  });

  it("does nothing when users exist", async () => {
    expect(
      await ensureFirstAdmin(database.db.kysely, {
        adminEmail: "x@example.com",
        adminPassword: undefined,
      }),
    ).toBeUndefined();
  });
});
