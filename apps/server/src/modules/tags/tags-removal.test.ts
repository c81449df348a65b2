import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertTest, tagTest, type TestRef } from "../../../test/factories.js";
import { buildTagApps, tagId, tagSnapshot, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";

// PUT /v1/dtag/{id}/test/{testId}, DELETE /v1/dtag/{id}, POST /v1/dtag/{id}/restore and
// DELETE /v1/tagged_test/{id}.

let database: TestDatabase;
let apps: TagApps;
let login: TestRef;
let checkout: TestRef;

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
  login = await insertTest(database.db, { id: 601, title: "Login works" });
  checkout = await insertTest(database.db, { id: 602, title: "Checkout total" });
});
afterAll(async () => {
  await apps.close();
  await database.drop();
});

// Every test starts from the same tags: smoke {login, checkout}, '@unstable' {login}.
beforeEach(async () => {
  await database.db.pool.query("DELETE FROM tags WHERE name <> '@unstable'");
  await database.db.pool.query("DELETE FROM tagged_tests");
  await database.db.pool.query("DELETE FROM deleted_tags");
  await tagTest(database.db, "smoke", login);
  await tagTest(database.db, "smoke", checkout);
  await tagTest(database.db, "@unstable", login);
});

async function linkId(tag: string, testId: number): Promise<number> {
  const { rows } = await database.db.pool.query<{ id: string }>(
    "SELECT l.id FROM tagged_tests l JOIN tags t ON t.id = l.tag_id WHERE t.name = $1 AND l.test_id = $2",
    [tag, testId],
  );
  return Number(rows[0]!.id);
}

describe("PUT /v1/dtag/{id}/test/{testId}", () => {
  const put = (url: string, payload?: unknown, app = apps.user) =>
    app.inject({ method: "PUT", url, ...(payload ? { payload: payload as object } : {}) });

  it("attaches an existing tag to a test (201), then ignores the repeat (200)", async () => {
    await tagTest(database.db, "api", checkout);
    const api = await tagId(database, "api");

    const first = await put(`/v1/dtag/${api}/test/${login.id}`, { testName: "Login (TC601)" });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      tag: { id: api, name: "api" },
      test: { id: login.id, name: "Login (TC601)" },
      tagCreated: false,
      alreadyTagged: false,
    });

    const before = await tagSnapshot(database);
    const again = await put(`/v1/dtag/${api}/test/${login.id}`, { testName: "Other" });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ alreadyTagged: true, test: { name: "Login (TC601)" } });
    expect(await tagSnapshot(database)).toEqual(before);
  });

  it("takes the catalogue title when no test name is sent", async () => {
    const smoke = await tagId(database, "smoke");
    await database.db.pool.query("DELETE FROM tagged_tests WHERE test_id = $1", [checkout.id]);

    // The spec's client may send no body at all.
    const res = await put(`/v1/dtag/${smoke}/test/${checkout.id}`);

    expect(res.statusCode).toBe(201);
    expect(res.json().test.name).toBe("Checkout total");
  });

  it("refuses a signed-out caller with 401 and changes nothing", async () => {
    const smoke = await tagId(database, "smoke");
    await database.db.pool.query("DELETE FROM tagged_tests WHERE test_id = $1", [checkout.id]);
    const before = await tagSnapshot(database);

    const res = await put(`/v1/dtag/${smoke}/test/${checkout.id}`, {}, apps.anonymous);

    expect(res.statusCode).toBe(401);
    expect(await tagSnapshot(database)).toEqual(before);
  });

  it("answers 404 for an unknown tag or an unknown test", async () => {
    const smoke = await tagId(database, "smoke");

    const noTag = await put(`/v1/dtag/987654/test/${login.id}`, {});
    const noTest = await put(`/v1/dtag/${smoke}/test/987654`, {});

    expect(noTag.statusCode).toBe(404);
    expect(noTag.json().error.message).toBe("No dynamic tag with id 987654.");
    expect(noTest.statusCode).toBe(404);
    expect(noTest.json().error.message).toMatch(/No test with id 987654/);
  });

  it("answers 400 for ids that are not numbers", async () => {
    const res = await put(`/v1/dtag/abc/test/${login.id}`, {});
    expect(res.statusCode).toBe(400);
    expect((await put(`/v1/dtag/1/test/1e3`, {})).statusCode).toBe(400);
  });
});

describe("DELETE /v1/dtag/{id}", () => {
  const del = (id: number | string, app = apps.user) =>
    app.inject({ method: "DELETE", url: `/v1/dtag/${id}` });

  it("deletes the tag and takes every test out of it", async () => {
    const smoke = await tagId(database, "smoke");

    const res = await del(smoke);

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: smoke, name: "smoke", testsRemoved: 2 });
    const { tags, links } = await tagSnapshot(database);
    expect(tags.map((t) => t.name)).toEqual(["@unstable"]);
    expect(links.map((l) => Number(l.test_id))).toEqual([login.id]);
    const list = (await apps.user.inject({ method: "GET", url: "/v1/dtag" })).json();
    expect(Object.keys(list.byTag)).toEqual(["@unstable"]);
  });

  it("refuses to delete '@unstable' with 409: it drives the unstable status", async () => {
    const before = await tagSnapshot(database);

    const res = await del(await tagId(database, "@unstable"));

    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: "tag_protected" });
    expect(res.json().error.message).toMatch(/'@unstable' tag cannot be deleted/);
    expect(await tagSnapshot(database)).toEqual(before);
  });

  it("refuses a signed-out caller with 401 and keeps the tag", async () => {
    const before = await tagSnapshot(database);

    const res = await del(await tagId(database, "smoke"), apps.anonymous);

    expect(res.statusCode).toBe(401);
    expect(await tagSnapshot(database)).toEqual(before);
  });

  it("answers 404 for an unknown tag and 400 for a non-numeric id", async () => {
    expect((await del(987654)).statusCode).toBe(404);
    expect((await del("smoke")).statusCode).toBe(400);
  });
});

describe("POST /v1/dtag/{id}/restore", () => {
  const restore = (id: number | string, app = apps.user) =>
    app.inject({ method: "POST", url: `/v1/dtag/${id}/restore` });
  const del = (id: number) => apps.user.inject({ method: "DELETE", url: `/v1/dtag/${id}` });

  it("keeps a deleted tag with its tests and who deleted it, and puts them back", async () => {
    const smoke = await tagId(database, "smoke");
    const before = await tagSnapshot(database);
    expect((await del(smoke)).statusCode).toBe(200);

    const { rows } = await database.db.pool.query(
      "SELECT name, deleted_by, tests FROM deleted_tags WHERE id = $1",
      [smoke],
    );
    expect(rows).toEqual([
      {
        name: "smoke",
        deleted_by: "qa@example.com",
        tests: [
          { testId: login.id, testName: "Login works" },
          { testId: checkout.id, testName: "Checkout total" },
        ],
      },
    ]);

    const res = await restore(smoke);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "smoke", testsRestored: 2 });
    const list = (await apps.user.inject({ method: "GET", url: "/v1/dtag" })).json();
    expect(list.byTag.smoke.tests.map((t: { id: number; name: string }) => [t.id, t.name])).toEqual(
      [
        [login.id, "Login works"],
        [checkout.id, "Checkout total"],
      ],
    );
    const after = await tagSnapshot(database);
    expect(after.links.map((l) => [Number(l.test_id), l.test_name]).sort()).toEqual(
      before.links.map((l) => [Number(l.test_id), l.test_name]).sort(),
    );
    expect((await restore(smoke)).statusCode).toBe(404);
  });

  it("adds the tests to a tag made with the name meanwhile", async () => {
    const smoke = await tagId(database, "smoke");
    await del(smoke);
    await tagTest(database.db, "smoke", checkout);

    const res = await restore(smoke);

    expect(res.json()).toMatchObject({ name: "smoke", testsRestored: 1 });
    const list = (await apps.user.inject({ method: "GET", url: "/v1/dtag" })).json();
    expect(list.byTag.smoke.tests.map((t: { id: number }) => t.id).sort()).toEqual(
      [login.id, checkout.id].sort(),
    );
  });

  it("refuses a signed-out caller with 401, and answers 404 for a tag never deleted", async () => {
    const smoke = await tagId(database, "smoke");
    await del(smoke);
    expect((await restore(smoke, apps.anonymous)).statusCode).toBe(401);
    expect((await restore(987654)).statusCode).toBe(404);
    expect((await restore("smoke")).statusCode).toBe(400);
    const { rows } = await database.db.pool.query("SELECT id FROM deleted_tags");
    expect(rows.map((r) => Number(r.id))).toEqual([smoke]);
  });
});

describe("DELETE /v1/tagged_test/{id}", () => {
  const del = (id: number | string, app = apps.user) =>
    app.inject({ method: "DELETE", url: `/v1/tagged_test/${id}` });

  it("takes one test out of one tag and leaves the rest", async () => {
    const link = await linkId("smoke", login.id);
    const smoke = await tagId(database, "smoke");

    const res = await del(link);

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: link, tagId: smoke, testId: login.id });
    const list = (await apps.user.inject({ method: "GET", url: "/v1/dtag" })).json();
    expect(list.byTag.smoke.test_ids).toEqual([checkout.id]);
    expect(list.byTag["@unstable"].test_ids).toEqual([login.id]);
  });

  it("answers 404 the second time, and for a link that never existed", async () => {
    const link = await linkId("smoke", checkout.id);
    expect((await del(link)).statusCode).toBe(200);

    const again = await del(link);

    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toMatch(/No tagged test with id/);
    expect((await del(987654)).statusCode).toBe(404);
    expect((await del("x")).statusCode).toBe(400);
  });

  it("refuses a signed-out caller with 401 and keeps the link", async () => {
    const before = await tagSnapshot(database);

    const res = await del(await linkId("smoke", login.id), apps.anonymous);

    expect(res.statusCode).toBe(401);
    expect(await tagSnapshot(database)).toEqual(before);
  });
});
