import { BuildPageSchema, BuildSchema, type Build, type BuildPage } from "@assay/core";

/** A build record as the builds API returns it; tests override what they look at. */
export function buildRecord(overrides: Partial<Build> = {}): Build {
  return BuildSchema.parse({
    id: 1,
    family: "frontend",
    region: "US",
    TEST_RUN_NAME: "ui nightly",
    NORA_SITE: "dev.legacy.example.com",
    ENVIRONMENT: null,
    BASE_URL: null,
    EXECUTOR: "QA Engineer",
    TEST_TAG: "@login",
    ENV: null,
    HOST: null,
    TEST_FILE: null,
    USERS: null,
    RUN_TIME: null,
    SPAWN_RATE: null,
    mode: "by_tags",
    sourceVersion: "master",
    currentPhase: "BUILD",
    buildStatus: "IN_PROGRESS",
    startTime: "2026-11-26T08:00:00.000Z",
    endTime: null,
    statusMessage: null,
    executorKind: "local",
    externalId: "4242",
    externalUrl: null,
    test_run_key: "ui-run-1",
    rerunOf: null,
    startedBy: { email: "qa@example.com", name: "QA Engineer" },
    payload: {},
    logUrl: null,
    ...overrides,
  });
}

/** One page of builds, `active` counted from the items' statuses. */
export function buildPage(items: Build[]): BuildPage {
  return BuildPageSchema.parse({
    items,
    total: items.length,
    page: 1,
    page_size: 15,
    active: items.filter((build) => build.buildStatus === "IN_PROGRESS").length,
  });
}
