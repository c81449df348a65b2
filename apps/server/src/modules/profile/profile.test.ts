import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { open } from "../../secret-box.js";
import { profileKey, testManagementSecret } from "./profile.service.js";

/** The Profile dialog's API: GET and PUT /v1/me, PUT /v1/me/picture. */

const SECRET = "spira-api-key-Zq8!sentinel-7f3a";
const PNG = Buffer.concat([
  Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
  randomBytes(64),
]);

let database: TestDatabase;
let built: TestApp;
let userId: number;

const put = (payload: object) => built.app.inject({ method: "PUT", url: "/v1/me", payload });
const get = () => built.app.inject({ method: "GET", url: "/v1/me" });

async function row() {
  return database.db.kysely
    .selectFrom("users")
    .selectAll()
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await database.db.kysely
    .insertInto("users")
    .values({ email: "qa@example.com", name: "QA Engineer" })
    .returning("id")
    .executeTakeFirstOrThrow();
  userId = user.id;
  built = await buildTestApp(database.db, {
    resolvePrincipal: async () => ({
      kind: "user",
      id: userId,
      email: "qa@example.com",
      name: "QA Engineer",
      admin: false,
    }),
  });
});

afterAll(async () => {
  await built?.app.close();
  await database?.drop();
});

beforeEach(async () => {
  await database.db.kysely
    .updateTable("users")
    .set({ name: "QA Engineer", spira_user: null, spira_secret_encrypted: null, picture: null })
    .where("id", "=", userId)
    .execute();
});

describe("GET /v1/me", () => {
  it("says who is signed in, with whether test-management credentials are set", async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json()).toEqual({
      signed_in: true,
      id: userId,
      email: "qa@example.com",
      name: "QA Engineer",
      picture: null,
      admin: false,
      spira_user: null,
      spira_pass_set: false,
      has_test_management_credentials: false,
      csrf_token: null,
    });
  });
});

describe("PUT /v1/me", () => {
  it("edits the name and the test-management user and password", async () => {
    const res = await put({ name: "Quinn QA", spira_user: "quinn", spira_pass: SECRET });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Quinn QA",
      spira_user: "quinn",
      spira_pass_set: true,
      has_test_management_credentials: true,
    });
    expect((await row()).name).toBe("Quinn QA");
  });

  it("keeps the password write-only: encrypted at rest, in no answer and no log line", async () => {
    const res = await put({ spira_user: "quinn", spira_pass: SECRET });
    const again = await get();
    for (const body of [res.body, again.body]) expect(body).not.toContain(SECRET);
    expect(JSON.stringify(built.logs)).not.toContain(SECRET);

    const stored = (await row()).spira_secret_encrypted;
    if (!stored) throw new Error("no stored secret");
    expect(stored.toString("latin1")).not.toContain(SECRET);
    expect(stored.toString("utf8")).not.toContain(SECRET);
    expect(open(randomBytes(32), stored, `assay-user:${userId}:spira-pass`)).toBeUndefined();
    expect(
      open(profileKey(randomBytes(32)), stored, `assay-user:${userId}:spira-pass`),
    ).toBeUndefined();
    // With the installation's key it opens, for the OQ build launcher only.
    const key = profileKey(Buffer.from(TEST_SECRET_KEY, "base64"));
    expect(
      await testManagementSecret({ db: database.db.kysely, key, objects: built.objects }, userId),
    ).toBe(SECRET);
  });

  it("keeps a stored password when the field is left out, and removes it when emptied", async () => {
    await put({ spira_user: "quinn", spira_pass: SECRET });
    expect((await put({ name: "Quinn" })).json().spira_pass_set).toBe(true);
    const cleared = await put({ spira_pass: "" });
    expect(cleared.json()).toMatchObject({
      spira_pass_set: false,
      has_test_management_credentials: false,
    });
    expect((await row()).spira_secret_encrypted).toBeNull();
  });

  it("refuses control characters in what reaches a build runner (400) and changes nothing", async () => {
    await put({ spira_user: "quinn", spira_pass: SECRET });
    // Issue 33: a heredoc delimiter after a line break let a user set NODE_OPTIONS in CI.
    for (const payload of [
      { spira_pass: "x\nASSAY_EOF\nNODE_OPTIONS=--require=/tmp/evil.js\nX<<ASSAY_EOF" },
      { spira_pass: "tab\there" },
      { spira_pass: "cr\rhere" },
      { spira_user: "quinn\nBASH_ENV=/tmp/evil" },
      { name: "Quinn\nEVIL=1" },
    ]) {
      const res = await put(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toMatch(/control characters such as line breaks/);
    }
    expect(await row()).toMatchObject({ name: "QA Engineer", spira_user: "quinn" });
    const key = profileKey(Buffer.from(TEST_SECRET_KEY, "base64"));
    expect(
      await testManagementSecret({ db: database.db.kysely, key, objects: built.objects }, userId),
    ).toBe(SECRET);
    // Any other character may be part of a password.
    expect((await put({ spira_pass: "pä$$ wörd 🔑 \"'<>" })).statusCode).toBe(200);
  });

  it("refuses to change the email (400) and changes nothing", async () => {
    const res = await put({ email: "boss@example.com", name: "Boss" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("email_read_only");
    expect(await row()).toMatchObject({ email: "qa@example.com", name: "QA Engineer" });
  });

  it("accepts the unchanged email, as the dialog sends the whole form", async () => {
    expect((await put({ email: "QA@example.com", name: "Quinn" })).statusCode).toBe(200);
  });

  it("refuses an empty name and unknown fields", async () => {
    expect((await put({ name: "  " })).statusCode).toBe(400);
    expect((await put({ is_admin: true })).statusCode).toBe(400);
    expect((await row()).is_admin).toBe(false);
  });
});

describe("PUT /v1/me/picture", () => {
  const upload = (body: Buffer, type: string) =>
    built.app.inject({
      method: "PUT",
      url: "/v1/me/picture",
      headers: { "content-type": type },
      payload: body,
    });

  it("stores an uploaded image in the object store and serves it from Assay's origin", async () => {
    const res = await upload(PNG, "image/png");
    expect(res.statusCode).toBe(200);
    const picture = res.json().picture as string;
    expect(picture).toMatch(/^\/v1\/objects\/avatars\/\d{4}\/\d{2}\/[0-9a-f-]+\.png$/);
    expect((await get()).json().picture).toBe(picture);
    const image = await built.app.inject({ method: "GET", url: picture });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(image.rawPayload.equals(PNG)).toBe(true);
  });

  it("refuses what is not an image whatever its Content-Type, and anything too large", async () => {
    const html = Buffer.from("<html><script>alert(1)</script></html>");
    expect((await upload(html, "image/png")).statusCode).toBe(415);
    expect((await upload(html, "text/html")).statusCode).toBe(415);
    const huge = Buffer.concat([PNG, Buffer.alloc(300 * 1024)]);
    expect((await upload(huge, "image/png")).statusCode).toBe(413);
    expect((await row()).picture).toBeNull();
  });

  it("replaces and removes the picture, deleting the stored file", async () => {
    const first = (await upload(PNG, "image/png")).json().picture as string;
    const second = (await upload(PNG, "image/png")).json().picture as string;
    expect((await built.app.inject({ method: "GET", url: first })).statusCode).toBe(404);
    expect((await put({ picture: null })).json().picture).toBeNull();
    expect((await built.app.inject({ method: "GET", url: second })).statusCode).toBe(404);
  });
});
