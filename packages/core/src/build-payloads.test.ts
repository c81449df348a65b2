import { describe, expect, it } from "vitest";
import {
  BUILD_MESSAGES,
  BackendBuildSchema,
  LoadBuildSchema,
  RerunBodySchema,
  emailListProblem,
  frontendBuildSchema,
  splitEmailList,
} from "./build-payloads.js";
import { branchProblem, isHostOrHttpsUrl, parseTagList } from "./build-values.js";

const context = {
  companyEmailDomain: "example.com",
  companyName: "Example",
  hasSpiraCredentials: true,
};
const frontend = frontendBuildSchema(context);
const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe("frontend build payload", () => {
  it("applies the spec's defaults: run_all, master, one runner, Legacy", () => {
    const build = frontend.parse({ nora_site: "dev1.example.com" });
    expect(build).toMatchObject({
      mode: "run_all",
      branch: "master",
      parallel_runners: 1,
      isNextGen: false,
      enable_coverage: false,
    });
  });

  it("bounds Parallel Runners to 1..10", () => {
    for (const n of [0, 11, 1.5, "3"]) {
      expect(frontend.safeParse({ nora_site: "a.example.com", parallel_runners: n }).success).toBe(
        false,
      );
    }
    expect(
      frontend.parse({ nora_site: "a.example.com", parallel_runners: 10 }).parallel_runners,
    ).toBe(10);
  });

  it("asks for Spira credentials before an OQ run", () => {
    const noCredentials = frontendBuildSchema({ ...context, hasSpiraCredentials: false });
    const result = noCredentials.safeParse({ nora_site: "a.example.com", mode: "oq_test" });
    expect(messages(result)).toEqual([
      BUILD_MESSAGES.spiraCredentials,
      BUILD_MESSAGES.oqReleaseRequired,
    ]);
  });

  it("requires a release for an OQ run (Spira or Jira)", () => {
    const oq = { nora_site: "a.example.com", mode: "oq_test" };
    expect(messages(frontend.safeParse(oq))).toEqual([BUILD_MESSAGES.oqReleaseRequired]);
    expect(frontend.safeParse({ ...oq, releaseId: 7 }).success).toBe(true);
    expect(frontend.safeParse({ ...oq, jiraRelease: "1.4.0" }).success).toBe(true);
  });

  it("checks the translation run's languages, emails, branch and runners", () => {
    const base = { nora_site: "stage.example.com", mode: "translation_test", branch: "stage" };
    expect(messages(frontend.safeParse(base))).toEqual([BUILD_MESSAGES.translationLanguages]);
    const ok = { ...base, translationLanguageCode: ["fr-FR"] };
    expect(frontend.safeParse(ok).success).toBe(true);
    expect(
      messages(
        frontend.safeParse({ ...ok, translationReportToEmail: "a@example.com, b@other.org" }),
      ),
    ).toEqual(["Only Example email supported"]);
    expect(
      messages(frontend.safeParse({ ...ok, translationReportToEmail: "not-an-email" })),
    ).toEqual(["Please enter valid email."]);
    expect(messages(frontend.safeParse({ ...ok, branch: "master" }))[0]).toContain(
      BUILD_MESSAGES.stageNote,
    );
  });

  it("requires a tag for By Test Tags, and refuses unknown fields", () => {
    expect(messages(frontend.safeParse({ nora_site: "a.example.com", mode: "by_tags" }))).toEqual([
      BUILD_MESSAGES.tagRequired,
    ]);
    const result = frontend.safeParse({
      nora_site: "a.example.com",
      spiraCredentialsString: "u:p",
    });
    expect(result.success).toBe(false);
  });
});

describe("email list", () => {
  it("splits on commas and removes whitespace", () => {
    expect(splitEmailList(" a@example.com ,\n b @example.com,,")).toEqual([
      "a@example.com",
      "b@example.com",
    ]);
    expect(emailListProblem("a@example.com, B@EXAMPLE.COM", "example.com", "Example")).toBeNull();
  });
});

describe("backend build payload", () => {
  it("requires env and branch, and a tag or sub set for those run types", () => {
    expect(messages(BackendBuildSchema.safeParse({ branch: "master" }))).toEqual([
      BUILD_MESSAGES.envRequired,
    ]);
    expect(messages(BackendBuildSchema.safeParse({ env: "dev1", branch: "" }))).toEqual([
      "Branch is required.",
    ]);
    expect(
      messages(BackendBuildSchema.safeParse({ env: "dev1", branch: "master", mode: "by_sub_set" })),
    ).toEqual([BUILD_MESSAGES.subSetRequired]);
    expect(
      BackendBuildSchema.parse({ env: "https://api.example.com/v2", branch: "main" }).env,
    ).toBe("https://api.example.com/v2");
  });
});

describe("load build payload", () => {
  const general = {
    branch: "master",
    env: "dev1",
    testFile: "nextgen/locustfile.py",
    runTime: "5m",
    spawnRate: 0.2,
    users: 20,
    loadRegion: "us-west-2",
  };

  it("gives the spec's seven messages", () => {
    const cases: [object, string][] = [
      [{ runType: "custom_db", query: "" }, BUILD_MESSAGES.dbQueryMissing],
      [{ runType: "custom_db", query: "select 1\nselect 2" }, BUILD_MESSAGES.dbQueryInvalid],
      [{ env: "other" }, BUILD_MESSAGES.missingCustomHost],
      [{ env: "" }, BUILD_MESSAGES.invalidEnv],
      [{ branch: "" }, BUILD_MESSAGES.invalidBranch],
      [{ testFile: "" }, BUILD_MESSAGES.invalidTestFile],
      [{ runTime: "5" }, BUILD_MESSAGES.invalidDuration],
      [{ users: 0 }, BUILD_MESSAGES.invalidUsers],
    ];
    for (const [change, message] of cases) {
      expect(messages(LoadBuildSchema.safeParse({ ...general, ...change }))).toEqual([message]);
    }
    expect(LoadBuildSchema.safeParse(general).success).toBe(true);
  });
});

describe("value rules", () => {
  it("follows git's ref rules for branches", () => {
    for (const bad of [
      "--upload-pack=touch /tmp/x",
      "a..b",
      "a b",
      "a~1",
      "x.lock",
      "a/",
      ".a",
      "@",
      "a@{1}",
      "a\u202eb",
    ]) {
      expect(branchProblem(bad), bad).not.toBeNull();
    }
    for (const good of ["master", "feature/x-1", "release/2.3", "user@host"]) {
      expect(branchProblem(good), good).toBeNull();
    }
  });

  it("accepts host names and https URLs only", () => {
    expect(isHostOrHttpsUrl("dev1.example.com")).toBe(true);
    expect(isHostOrHttpsUrl("localhost:3000")).toBe(true);
    expect(isHostOrHttpsUrl("https://site.example.com/path?q=1")).toBe(true);
    for (const bad of [
      "http://x.example.com",
      "https://u:p@x.example.com",
      "a;b",
      "-oProxy",
      "x y",
      "file:///etc/passwd",
    ]) {
      expect(isHostOrHttpsUrl(bad), bad).toBe(false);
    }
  });

  it("reads tag lists of tags and test ids", () => {
    expect(parseTagList("@smoke, TC12")).toEqual({ ok: true, tags: ["@smoke", "TC12"] });
    expect(parseTagList("@Smoke").ok).toBe(false);
    expect(parseTagList("$(id)").ok).toBe(false);
  });

  it("takes failed or unstable for a rerun", () => {
    expect(RerunBodySchema.safeParse({ tests: "failed" }).success).toBe(true);
    expect(RerunBodySchema.safeParse({ tests: "all" }).success).toBe(false);
  });
});
