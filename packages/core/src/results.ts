import { z } from "zod";

/**
 * Assay's own result schema: what every report parser produces and what live reporters send
 * to the ingest API (JSON or NDJSON). Field names follow spec section 3 where it names them.
 */

/** Raw outcome of one attempt. "skipped" counts as pending; derived statuses live in status.ts. */
export const RawStatusSchema = z.enum(["passed", "failed", "skipped"]);
export type RawStatus = z.infer<typeof RawStatusSchema>;

export const StepInputSchema = z.object({
  action: z.string().describe("What the step did, e.g. 'Given I log in as a site user'"),
  passed: z.boolean().nullable().describe("true passed, false failed, null not run (skipped)"),
  location: z.string().optional().describe("Line or code location (file:line) of the step"),
  duration_ms: z.number().nonnegative().optional(),
  before: z.boolean().default(false).describe("A before step: hook, background or setup"),
});
export type StepInput = z.input<typeof StepInputSchema>;

export const AttachmentInputSchema = z.object({
  name: z.string().min(1).describe("Attachment name as the report gives it"),
  content_type: z.string().default("application/octet-stream"),
  description: z.string().optional(),
  /** Index into `steps` of the step this attachment follows (screenshots after a step). */
  step_index: z.int().nonnegative().optional(),
  timestamp: z.iso.datetime({ offset: true }).optional(),
  /** A file of the same upload, by the path the report names (never a storage path). */
  path: z.string().min(1).optional(),
  /** Inline content, base64 (Cucumber embeddings, Playwright bodies). */
  body_base64: z.string().optional(),
});
export type AttachmentInput = z.input<typeof AttachmentInputSchema>;

export const ApiRequestInputSchema = z.object({
  method: z.string().min(1).max(16),
  url: z.string().min(1),
  status: z.int().min(0).max(999),
  response_time_ms: z.number().nonnegative(),
});
export type ApiRequestInput = z.input<typeof ApiRequestInputSchema>;

export const ResultInputSchema = z.object({
  test_run_test_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Explicit id within the run; absent: derived from suite path, name and attempt"),
  test_id: z
    .int()
    .positive()
    .optional()
    .describe("Stable test id (shown TC{id}); absent: taken from tags/title or assigned"),
  name: z.string().min(1).describe("Test name"),
  suite_path: z.array(z.string()).default([]).describe("Enclosing suites, outermost first"),
  title: z.string().optional(),
  scenario: z.string().optional(),
  description: z.string().optional(),
  file: z.string().optional(),
  root_path: z.string().optional(),
  body: z.string().optional().describe("The test's script"),
  status: RawStatusSchema,
  failure_type: z.enum(["failure", "error"]).optional().describe("JUnit keeps the two apart"),
  attempt: z.int().nonnegative().default(0).describe("0 for the first try, 1 for the first retry"),
  error_message: z.string().optional(),
  error_name: z.string().optional(),
  error_stack: z.string().optional(),
  console_log: z.string().optional().describe("Standard output of the test"),
  console_errors: z.string().optional().describe("Standard error or browser console errors"),
  request_errors: z.string().optional(),
  tags: z.array(z.string()).default([]),
  start_time: z.iso.datetime({ offset: true }).optional(),
  end_time: z.iso.datetime({ offset: true }).optional(),
  duration_ms: z.number().nonnegative().default(0),
  nora_site: z.string().optional(),
  version: z.string().optional(),
  commit_hash: z.string().optional(),
  chrome_version: z.string().optional(),
  platform: z.string().optional(),
  executor: z.string().optional(),
  branch: z.string().optional(),
  baseurl: z.string().optional(),
  properties: z.record(z.string(), z.string()).optional(),
  steps: z.array(StepInputSchema).default([]),
  attachments: z.array(AttachmentInputSchema).default([]),
  api_requests: z.array(ApiRequestInputSchema).default([]),
});
export type ResultInput = z.input<typeof ResultInputSchema>;
export type Result = z.output<typeof ResultInputSchema>;

export const REPORT_FORMATS = [
  "junit",
  "cucumber",
  "allure",
  "ctrf",
  "playwright",
  "mocha",
  "locust",
  "trx",
  "nunit",
  "xunit",
  "testng",
  "gotest",
  "rspec",
  "dart",
] as const;
export const ReportFormatSchema = z.enum(REPORT_FORMATS);
export type ReportFormat = z.infer<typeof ReportFormatSchema>;

/** Each format and the command (or reporter) that writes it: shown in /docs and the README. */
export const REPORT_FORMAT_SOURCES: Record<ReportFormat, string> = {
  junit:
    "JUnit XML: Maven Surefire/Failsafe, Gradle, jest-junit, mocha-junit-reporter, node --test-reporter=junit, pytest --junitxml, WebdriverIO",
  cucumber: "Cucumber JSON: cucumber-js --format json:cucumber.json, Cucumber-JVM json plugin",
  allure: "Allure 2 results folder or its zip: allure-results/ of any Allure adapter",
  ctrf: "CTRF JSON: any CTRF reporter (ctrf-report.json)",
  playwright: "Playwright JSON: npx playwright test --reporter=json",
  mocha: "Mocha JSON: mocha --reporter json",
  locust: "Locust CSV + HTML: locust --csv run --html report.html",
  trx: ".NET TRX: dotnet test --logger trx (MSTest, xUnit.net, NUnit adapters), vstest.console /logger:trx",
  nunit:
    "NUnit 3 XML: nunit3-console (TestResult.xml), dotnet test --logger nunit; NUnit 2 XML: nunit-console 2.x",
  xunit:
    "xUnit.net v2/v3 XML: xunit.console -xml results.xml, an xUnit v3 test project run with -xml",
  testng: "TestNG XML: testng-results.xml, written by TestNG (also under target/surefire-reports)",
  gotest: "go test -json ./... > go-test.json, or gotestsum --jsonfile go-test.json",
  rspec: "RSpec JSON: rspec --format json --out rspec.json",
  dart: "Dart/Flutter JSON: dart test --reporter json > dart.json, flutter test --machine > flutter.json",
};

/** Per-endpoint statistics of a load run (Locust's stats CSV, one row per endpoint). */
export const LoadEndpointStatSchema = z.object({
  method: z.string().describe("Request type; empty for the Aggregated row"),
  name: z.string(),
  requests: z.int().nonnegative(),
  failures: z.int().nonnegative(),
  median_ms: z.number().nonnegative().nullable(),
  p95_ms: z.number().nonnegative().nullable(),
  p99_ms: z.number().nonnegative().nullable(),
  average_ms: z.number().nonnegative().nullable(),
  min_ms: z.number().nonnegative().nullable(),
  max_ms: z.number().nonnegative().nullable(),
  requests_per_s: z.number().nonnegative(),
  failures_per_s: z.number().nonnegative(),
  aggregated: z.boolean().describe("The 'Aggregated' total row"),
});
export type LoadEndpointStat = z.infer<typeof LoadEndpointStatSchema>;
