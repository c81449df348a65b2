import { describe, expect, it } from "vitest";
import {
  CatalogSchema,
  DEFAULT_TICKET_PATTERN,
  TestSubsetSchema,
  type CatalogInput,
} from "./catalog.js";

// The smallest catalogue the schema accepts: every key without a spec-given default.
function minimalCatalog(): CatalogInput {
  return {
    sites: {
      legacy: [
        { value: "dev.legacy.example.com", label: "Legacy Dev" },
        { value: "other", label: "Other" },
      ],
      nextGen: [
        { value: "dev1.nextgen.example.com", label: "Dev1" },
        { value: "other", label: "Other" },
      ],
    },
    loadTeams: [
      {
        name: "NextGen",
        testFiles: [
          { value: "locustfiles/nextgen/patient_login.py", label: "Patient Login" },
          { value: "locustfiles/mysql/custom_query.py", label: "Custom DB Query", customDb: true },
        ],
      },
    ],
    loadEnvs: [
      { value: "legacy-dev", label: "Legacy Dev", supportsDbTest: true },
      { value: "other", label: "Other" },
    ],
    loadLocations: [{ value: "us-west-2", label: "US Oregon" }],
    regionLabels: { "us-west-2": "US (Oregon)" },
    translationLanguages: [
      {
        translationCode: "fr-FR",
        languageCode: "fr",
        language: "French",
        languageAbbreviation: "FR",
      },
    ],
    formLanguages: [
      {
        languageId: 1036,
        uiLanguageCode: "fr-FR",
        languageName: "French",
        formLanguageCode: "fr_FR",
      },
    ],
    testSubsets: {
      legacy: [{ name: "Smoke Test", count: 2, tags: ["@smoke"], testIds: [1001, 1002] }],
      api: [],
      nextGen: [],
    },
    majorTags: ["@login"],
    issueTrackerUrl: "https://jira.example.com/browse/",
    companyEmailDomain: "example.com",
    companyName: "Example Health",
    documentationLinks: [{ label: "API Documentation", url: "/docs" }],
    footer: { copyright: "© 2026 Assay contributors", tagline: "We test so patients can trust" },
    sourceRepositoryUrl: "https://git.example.com/qa/ui-tests/blob/master/",
    testRepoLinks: {
      frontend: "https://git.example.com/qa/ui-tests",
      backend: "https://git.example.com/qa/api-tests",
      load: "https://git.example.com/qa/load-tests",
    },
  };
}

function issueMessages(input: unknown): string[] {
  const result = CatalogSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("CatalogSchema", () => {
  it("parses a minimal catalogue and fills the spec's constants", () => {
    const catalog = CatalogSchema.parse(minimalCatalog());
    expect(catalog.ticketPattern).toBe(DEFAULT_TICKET_PATTERN);
    expect(catalog.buildRegions).toEqual({ options: ["US", "CHINA"], default: "US" });
    expect(catalog.loadDefaults).toEqual({
      team: "NextGen",
      runType: "general",
      users: 20,
      duration: "5m",
      spawnRate: 0.2,
      customDb: { users: 2, duration: "2m" },
    });
  });

  it("keeps partial load defaults and fills the rest", () => {
    const catalog = CatalogSchema.parse({ ...minimalCatalog(), loadDefaults: { users: 50 } });
    expect(catalog.loadDefaults.users).toBe(50);
    expect(catalog.loadDefaults.customDb).toEqual({ users: 2, duration: "2m" });
  });

  it("rejects an unknown (e.g. misspelled) key at any depth", () => {
    expect(issueMessages({ ...minimalCatalog(), majorTag: ["@login"] })).toEqual([
      expect.stringMatching(/Unrecognized key.*majorTag/),
    ]);
    const typo = minimalCatalog();
    typo.footer = { ...typo.footer, tagLine: "x" } as CatalogInput["footer"];
    expect(issueMessages(typo)).toEqual([
      expect.stringMatching(/^footer: Unrecognized key.*tagLine/),
    ]);
  });

  it("requires catalogue keys the spec gives no constant for", () => {
    const input: Partial<CatalogInput> = minimalCatalog();
    delete input.companyName;
    expect(issueMessages(input)).toEqual([expect.stringMatching(/^companyName: /)]);
  });

  it("rejects load settings the Custom DB run type could not honour", () => {
    const input = minimalCatalog();
    input.loadEnvs = [{ value: "other", label: "Other" }];
    input.loadDefaults = { team: "Legacy" };
    expect(issueMessages(input)).toEqual([
      'loadDefaults.team: loadDefaults.team "Legacy" is not a loadTeams name',
      "loadEnvs: exactly one load env must set supportsDbTest (Custom DB uses it); found 0",
    ]);
  });

  it("requires an Other site, since it unlocks the custom site field", () => {
    const input = minimalCatalog();
    input.sites.nextGen = [{ value: "dev1.nextgen.example.com", label: "Dev1" }];
    expect(issueMessages(input)).toEqual([
      expect.stringMatching(/^sites\.nextGen: .*"other" entry/),
    ]);
  });

  it("rejects an invalid ticket pattern and a base URL without a trailing slash", () => {
    const input = {
      ...minimalCatalog(),
      ticketPattern: "nxl-(",
      issueTrackerUrl: "https://jira.example.com/browse",
    };
    expect(issueMessages(input)).toEqual([
      "ticketPattern: ticketPattern must be a valid regular expression",
      "issueTrackerUrl: base URLs must end with '/'",
    ]);
  });
});

describe("TestSubsetSchema", () => {
  it("accepts a subset whose count matches its ids", () => {
    const subset = { name: "Smoke Test", count: 3, tags: ["@smoke"], testIds: [1, 2, 3] };
    expect(TestSubsetSchema.parse(subset)).toEqual(subset);
  });

  it("rejects a count that differs from the number of test ids", () => {
    const result = TestSubsetSchema.safeParse({
      name: "Smoke Test",
      count: 19,
      tags: [],
      testIds: [1, 2],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ["count"],
        message: "count must equal the number of testIds (19 vs 2)",
      }),
    ]);
  });

  it("rejects duplicate ids and upper-case tags", () => {
    const result = TestSubsetSchema.safeParse({
      name: "X",
      count: 2,
      tags: ["@Smoke"],
      testIds: [7, 7],
    });
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["tags.0", "testIds.1"]);
  });
});
