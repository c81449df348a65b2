import { CatalogSchema, type Catalog, type CatalogInput } from "@assay/core";

/**
 * A small catalogue that passes CatalogSchema, with the example configuration's documentation
 * links and footer. Tests override what they look at.
 */
export function buildCatalog(overrides: Partial<CatalogInput> = {}): Catalog {
  const input: CatalogInput = {
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
    testSubsets: { legacy: [], api: [], nextGen: [] },
    majorTags: ["@login"],
    issueTrackerUrl: "https://jira.example.com/browse/",
    companyEmailDomain: "example.com",
    companyName: "Example Health",
    documentationLinks: [
      { label: "API Documentation", url: "/docs" },
      { label: "Directory of Legacy UI Tests", url: "https://docs.example.com/qa/legacy-ui-tests" },
      {
        label: "Directory of NextGen UI Tests",
        url: "https://docs.example.com/qa/nextgen-ui-tests",
      },
      { label: "Directory of Mobile UI Tests", url: "https://docs.example.com/qa/mobile-ui-tests" },
    ],
    footer: {
      copyright: "© 2026 Assay contributors",
      tagline: "Quality Engineering — we test so patients can trust",
    },
    sourceRepositoryUrl: "https://git.example.com/qa/ui-tests/blob/master/",
    testRepoLinks: {
      frontend: "https://git.example.com/qa/ui-tests",
      backend: "https://git.example.com/qa/api-tests",
      load: "https://git.example.com/qa/load-tests",
    },
  };
  return CatalogSchema.parse({ ...input, ...overrides });
}
