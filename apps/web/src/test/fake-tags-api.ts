import { buildMe } from "./me-factory";
import { normalizeTag, type TagList } from "@assay/core";
import { vi } from "vitest";
import { errorResponse, jsonResponse } from "./mock-api";

/**
 * An in-memory Dynamic Tags server for component tests: GET/POST /v1/dtag, DELETE
 * /v1/dtag/{id}, POST /v1/dtag/{id}/restore, DELETE /v1/tagged_test/{id} and GET /v1/me, with the real API's rules (names
 * lower-cased, a repeat ignored, '@unstable' protected, 401 when signed out). Every call is
 * recorded, so a test can assert what the screen sent.
 */

export interface FakeTag {
  id: number;
  name: string;
  tests: { id: number; name: string; taggedTestId: number }[];
}

export interface FakeTagsOptions {
  signedIn?: boolean;
  /** Answer removals (DELETE) with this status and message instead of doing them. */
  failRemovals?: { status: number; message: string };
  /** Answer GET /v1/dtag with a 500. */
  failList?: boolean;
  /** GET /v1/dtag never answers (to see the loading state). */
  hangList?: boolean;
}

export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
}

export function installFakeTagsApi(initial: FakeTag[], options: FakeTagsOptions = {}) {
  const tags: FakeTag[] = structuredClone(initial);
  const calls: FakeCall[] = [];
  let nextId = 1000;
  /** Tags deleted, kept for POST /v1/dtag/{id}/restore as the server keeps them. */
  const deleted: FakeTag[] = [];

  const list = (): TagList => {
    const byTag: TagList["byTag"] = {};
    for (const tag of tags) {
      byTag[tag.name] = {
        id: tag.id,
        tests: tag.tests,
        test_ids: tag.tests.map((test) => test.id),
      };
    }
    return { byTag, options: tags.map((tag) => ({ text: tag.name, value: tag.id })) };
  };

  const add = (body: { name: string; testId: number; testName?: string }) => {
    // The server's own rule (core), so the fake cannot drift from it.
    const check = normalizeTag(
      body.name,
      tags.map((t) => t.name),
    );
    if (!check.ok) return errorResponse(400, "bad_request", check.message);
    const { name } = check;
    let tag = tags.find((t) => t.name === name);
    const tagCreated = !tag;
    if (!tag) {
      tag = { id: nextId++, name, tests: [] };
      tags.push(tag);
    }
    let test = tag.tests.find((t) => t.id === body.testId);
    const alreadyTagged = Boolean(test);
    if (!test) {
      test = {
        id: body.testId,
        name: body.testName ?? `Test ${body.testId}`,
        taggedTestId: nextId++,
      };
      tag.tests.push(test);
    }
    return jsonResponse(
      { tag: { id: tag.id, name: tag.name }, test, tagCreated, alreadyTagged },
      alreadyTagged ? 200 : 201,
    );
  };

  const remove = (path: string) => {
    if (options.failRemovals) {
      return errorResponse(options.failRemovals.status, "failed", options.failRemovals.message);
    }
    const tagMatch = /^\/v1\/dtag\/(\d+)$/.exec(path);
    if (tagMatch) {
      const at = tags.findIndex((t) => t.id === Number(tagMatch[1]));
      if (at < 0) return errorResponse(404, "not_found", "No dynamic tag with that id.");
      const [gone] = tags.splice(at, 1);
      deleted.push(gone!);
      return jsonResponse({ id: gone!.id, name: gone!.name, testsRemoved: gone!.tests.length });
    }
    const linkId = Number(/^\/v1\/tagged_test\/(\d+)$/.exec(path)?.[1]);
    for (const tag of tags) {
      const at = tag.tests.findIndex((t) => t.taggedTestId === linkId);
      if (at < 0) continue;
      const [gone] = tag.tests.splice(at, 1);
      return jsonResponse({ id: linkId, tagId: tag.id, testId: gone!.id });
    }
    return errorResponse(404, "not_found", "No tagged test with that id.");
  };

  /** As the real restore: a deleted tag comes back with its tests, into a namesake if one exists. */
  const restore = (deletedId: number) => {
    const at = deleted.findIndex((t) => t.id === deletedId);
    if (at < 0) return errorResponse(404, "not_found", "No deleted tag with that id.");
    const [gone] = deleted.splice(at, 1);
    let tag = tags.find((t) => t.name === gone!.name);
    if (!tag) {
      tag = { id: nextId++, name: gone!.name, tests: [] };
      tags.push(tag);
    }
    const back = gone!.tests.filter((test) => !tag.tests.some((t) => t.id === test.id));
    tag.tests.push(...back.map((test) => ({ ...test, taggedTestId: nextId++ })));
    return jsonResponse({ id: tag.id, name: tag.name, testsRestored: back.length });
  };

  const handle = (method: string, path: string, body: unknown): Response | Promise<Response> => {
    if (path === "/v1/me") {
      // As the real GET /v1/me answers: the user, or 200 with signed_in false.
      return jsonResponse(
        options.signedIn ? buildMe({ csrf_token: "csrf-test-token" }) : { signed_in: false },
      );
    }
    if (path === "/v1/dtag" && method === "GET") {
      if (options.hangList) return new Promise<Response>(() => undefined);
      if (options.failList) return errorResponse(500, "internal_error", "Database unavailable.");
      return jsonResponse(list());
    }
    if (!options.signedIn) return errorResponse(401, "unauthorized", "Sign in first.");
    if ((path === "/v1/dtag" || path === "/v1/dtag/") && method === "POST") {
      return add(body as { name: string; testId: number; testName?: string });
    }
    const restoring = /^\/v1\/dtag\/(\d+)\/restore$/.exec(path);
    if (restoring && method === "POST") return restore(Number(restoring[1]));
    if (method === "DELETE") return remove(path);
    return errorResponse(404, "not_found", `No fake for ${method} ${path}`);
  };

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://assay.test");
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url.pathname, body });
    return handle(method, url.pathname, body);
  });
  vi.stubGlobal("fetch", fetchMock);

  return {
    tags,
    calls,
    /** Calls other than reads, in order. */
    changes: () => calls.filter((call) => call.method !== "GET"),
    /** How many times the tag list was read. */
    listReads: () => calls.filter((c) => c.method === "GET" && c.path === "/v1/dtag").length,
  };
}
