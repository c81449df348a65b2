import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertResult,
  insertRun,
  insertTest,
  tagTest,
  type TestRef,
} from "../../../test/factories.js";
import { buildTagApps, tagId, tagSnapshot, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { TEST_INGEST_TOKEN } from "../../../test/upload.js";

let database: TestDatabase;
let apps: TagApps;
let login: TestRef;
let checkout: TestRef;

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
  login = await insertTest(database.db, { id: 501, title: "Login works" });
  checkout = await insertTest(database.db, { id: 502, title: "Checkout total" });
});
afterAll(async () => {
  await apps.close();
  await database.drop();
});

const post = (body: unknown, url = "/v1/dtag", app = apps.user) =>
  app.inject({ method: "POST", url, payload: body as Record<string, unknown> });
const list = async () => (await apps.anonymous.inject({ method: "GET", url: "/v1/dtag" })).json();

describe("GET /v1/dtag", () => {
  it("lists '@unstable' from the start, as the map and the selection list, to anyone", async () => {
    const res = await apps.anonymous.inject({ method: "GET", url: "/v1/dtag" });

    expect(res.statusCode).toBe(200);
    const unstableId = await tagId(database, "@unstable");
    expect(res.json()).toEqual({
      byTag: { "@unstable": { id: unstableId, tests: [], test_ids: [] } },
      options: [{ text: "@unstable", value: unstableId }],
    });
  });
});

describe("POST /v1/dtag", () => {
  it("refuses a signed-out caller with 401 and changes nothing", async () => {
    const before = await tagSnapshot(database);

    const res = await post(
      { name: "@smoke", testId: login.id, testName: "x" },
      "/v1/dtag",
      apps.anonymous,
    );

    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("unauthorized");
    expect(await tagSnapshot(database)).toEqual(before);
  });

  it("refuses a service token with 403: tags are edited by people", async () => {
    const before = await tagSnapshot(database);

    const res = await apps.withToken.inject({
      method: "POST",
      url: "/v1/dtag",
      headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
      payload: { name: "@smoke", testId: login.id },
    });

    expect(res.statusCode).toBe(403);
    expect(await tagSnapshot(database)).toEqual(before);
  });

  it("creates an unknown tag, trimmed and lower-cased, and puts the test in it (201)", async () => {
    const res = await post({ name: "  @Smoke-Suite ", testId: login.id, testName: "Login works" });

    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      tag: { name: "@smoke-suite" },
      test: { id: login.id, name: "Login works" },
      tagCreated: true,
      alreadyTagged: false,
    });
    const id = await tagId(database, "@smoke-suite");
    expect(body.tag.id).toBe(id);
    expect((await list()).byTag["@smoke-suite"]).toEqual({
      id,
      tests: [{ id: login.id, name: "Login works", taggedTestId: body.test.taggedTestId }],
      test_ids: [login.id],
    });
  });

  it("ignores a tag the test already has, whatever its case (200, nothing changes)", async () => {
    const before = await tagSnapshot(database);

    const res = await post({ name: "@SMOKE-SUITE", testId: login.id, testName: "Another name" });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tagCreated: false, alreadyTagged: true });
    expect(res.json().test.name).toBe("Login works");
    expect(await tagSnapshot(database)).toEqual(before);
  });

  it("attaches a known tag to another test without making a second tag", async () => {
    const res = await post({ name: "@smoke-suite", testId: checkout.id }, "/v1/dtag/");

    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ tagCreated: false, alreadyTagged: false });
    // No testName: the catalogue title is kept with the link.
    expect(res.json().test.name).toBe("Checkout total");
    const entry = (await list()).byTag["@smoke-suite"];
    expect(entry.test_ids).toEqual([login.id, checkout.id]);
    const { tags } = await tagSnapshot(database);
    expect(tags.filter((t) => t.name === "@smoke-suite")).toHaveLength(1);
  });

  it.each([
    ["", "A tag name cannot be empty."],
    ["   ", "A tag name cannot be empty."],
    ["two\nlines", "A tag name cannot contain control characters such as line breaks or tabs."],
    ["tab\there", "A tag name cannot contain control characters such as line breaks or tabs."],
    [`@${"x".repeat(100)}`, "A tag name can have at most 100 characters; this one has 101."],
    [
      "no-at-sign",
      "“no-at-sign” is not a tag: a tag starts with @, then letters, digits and - _ . : /, e.g. @smoke.",
    ],
    [
      "<script>alert(1)</script>",
      "“<script>alert(1)</script>” is not a tag: a tag starts with @, then letters, digits and - _ . : /, e.g. @smoke.",
    ],
    [
      '@"><img src=x onerror=alert(1)>',
      '“@"><img src=x onerror=alert(1)>” is not a tag: after the @ use only letters, digits and - _ . : / (no spaces), e.g. @smoke-checkout.',
    ],
  ])("refuses the name %j with 400 and says why", async (name, message) => {
    const before = await tagSnapshot(database);

    const res = await post({ name, testId: login.id });

    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: "bad_request", message });
    expect(await tagSnapshot(database)).toEqual(before);
  });

  it.each([
    [{ testId: 501 }],
    [{ name: "@smoke" }],
    [{ name: "@smoke", testId: "abc" }],
    [{ name: "@smoke", testId: -1 }],
    [{ name: "@smoke", testId: 1.5 }],
    [{ name: 7, testId: 501 }],
  ])("refuses the malformed body %j with 400", async (body) => {
    const res = await post(body);

    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("invalid_request");
  });

  it("answers 404 for a test Assay does not know, and makes no tag", async () => {
    const before = await tagSnapshot(database);

    const res = await post({ name: "@orphan", testId: 999_999 });

    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toMatch(/No test with id 999999/);
    expect(await tagSnapshot(database)).toEqual(before);
  });

  it("lists tags in name order with each tag's tests in id order", async () => {
    await post({ name: "@checkout", testId: checkout.id });
    await post({ name: "@checkout", testId: login.id });
    await post({ name: "@Zeta", testId: login.id });
    await post({ name: "@api", testId: checkout.id });

    const body = await list();

    expect(Object.keys(body.byTag)).toEqual([
      "@api",
      "@checkout",
      "@smoke-suite",
      "@unstable",
      "@zeta",
    ]);
    expect(body.options.map((o: { text: string }) => o.text)).toEqual(Object.keys(body.byTag));
    expect(body.options.map((o: { value: number }) => o.value)).toEqual(
      Object.values(body.byTag).map((t) => (t as { id: number }).id),
    );
    expect(body.byTag["@checkout"].tests.map((t: { id: number }) => t.id)).toEqual([501, 502]);
  });

  it("makes a failed result unstable once its test is put in '@unstable'", async () => {
    const flaky = await insertTest(database.db, { title: "Flaky upload" });
    // Run counters are stored at ingestion; unstable is derived from the tag on every read.
    const run = await insertRun(database.db, {
      test_run_key: "tags-unstable",
      total: 1,
      failed: 1,
    });
    await insertResult(database.db, run, flaky, { status: "failed", error_message: "timeout" });
    const counts = async () =>
      (await apps.anonymous.inject({ method: "GET", url: "/v1/test-runs/tags-unstable" })).json()
        .run;
    expect(await counts()).toMatchObject({ failed: 1, unstable: 0 });

    const res = await post({ name: "@unstable", testId: flaky.id });

    expect(res.statusCode).toBe(201);
    expect(await counts()).toMatchObject({ failed: 0, unstable: 1 });
  });
});

describe("tags made before the tag rule", () => {
  it("stay listed and can still be put on a test, by id or by name", async () => {
    const legacy = await insertTest(database.db, { title: "Legacy tagged" });
    await tagTest(database.db, "smoke checkout", legacy);
    const id = await tagId(database, "smoke checkout");

    expect((await list()).byTag["smoke checkout"].tests).toHaveLength(1);
    const res = await apps.user.inject({
      method: "PUT",
      url: `/v1/dtag/${id}/test/${login.id}`,
      payload: {},
    });
    expect(res.statusCode).toBe(201);
    const byName = await post({ name: "Smoke Checkout", testId: checkout.id });
    expect(byName.statusCode).toBe(201);
    expect(byName.json()).toMatchObject({ tag: { id, name: "smoke checkout" }, tagCreated: false });
  });
});

describe("OpenAPI", () => {
  it("documents every tag route once (the slash form of POST is served, not listed)", async () => {
    const spec = (await apps.anonymous.inject({ method: "GET", url: "/docs/json" })).json();
    const paths = Object.keys(spec.paths);

    expect(paths).toEqual(
      expect.arrayContaining([
        "/v1/dtag",
        "/v1/dtag/{id}/test/{testId}",
        "/v1/dtag/{id}",
        "/v1/tagged_test/{id}",
      ]),
    );
    expect(paths).not.toContain("/v1/dtag/");
    expect(Object.keys(spec.paths["/v1/dtag"])).toEqual(["get", "post"]);
  });
});
