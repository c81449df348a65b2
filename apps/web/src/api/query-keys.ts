/** Every query key in one place, so that invalidations and prefetches cannot drift from the hooks. */
export const queryKeys = {
  catalog: ["catalog"] as const,
  /** Who is signed in (GET /v1/me); every sign-in dependent query hangs under it. */
  me: ["me"] as const,
  instance: ["instance"] as const,
  tags: ["tags"] as const,
  testHistory: (testId: number) => ["test-history", testId] as const,
  /** Aliases (renamed tests): a test's group with undone ones, or the recent ones (testId -1). */
  aliases: (testId: number) => ["aliases", testId] as const,
  aliasSuggestions: ["aliases", "suggestions"] as const,
  topFails: ["top-fails"] as const,
  settings: ["settings"] as const,
  notifyRules: ["notify-rules"] as const,
  retention: ["retention"] as const,
  rolledUpTest: (testId: number) => ["retention", "test", testId] as const,
  dailyChart: (search: string) => ["daily-chart", search] as const,
  rerunRuns: (search: string) => ["rerun-runs", search] as const,
  traceabilityMatrix: ["traceability-matrix"] as const,
  /** A requirement's screen links: under the matrix's key, so reading the matrix again reads them. */
  rmsLinks: (id: number) => ["traceability-matrix", "links", id] as const,
  /** Ticket details of a sorted, comma-joined key list (POST /v1/jira/details). */
  ticketDetails: (keys: string) => ["ticket-details", keys] as const,
  integrations: ["integrations"] as const,
  jiraReleaseVersions: ["jira-release-versions"] as const,
  spiraReleases: ["spira-releases"] as const,
  releaseReport: ["release-report"] as const,
  traceabilityTestHistory: (testId: number) => ["traceability-test-history", testId] as const,
  runList: (family: string, page: number, pageSize: number, filters = "") =>
    ["run-list", family, page, pageSize, filters] as const,
  /** Pages of a run view (GET .../view) under one filter set. */
  runView: (family: string, key: string, filters: string) =>
    ["run-view", family, key, filters] as const,
  /** Every filter set's pages of one run's view: what to read again when the run changes. */
  runViews: (family: string, key: string) => ["run-view", family, key] as const,
  backendResult: (key: string, id: string) => ["backend-result", key, id] as const,
  apiLog: (key: string, page: number, pageSize: number) =>
    ["api-log", key, page, pageSize] as const,
  loadRun: (key: string) => ["load-run", key] as const,
  /** The run diff of two runs (GET /v1/runs/{a}/diff/{b}). */
  runDiff: (a: string, b: string) => ["run-diff", a, b] as const,
  /** The run before a run in its job (GET /v1/runs/{key}/previous). */
  previousRun: (key: string) => ["previous-run", key] as const,
  /** A load run's job over time (GET /v1/load-test-runs/{key}/trends). */
  loadTrend: (key: string, runs: number) => ["load-trend", key, runs] as const,
  testDetail: (key: string, id: string) => ["test-detail", key, id] as const,
  /** The start of a stored text attachment (objects never change under their key). */
  attachmentText: (path: string, maxBytes: number) => ["attachment-text", path, maxBytes] as const,
  /** Every page of one build list (its path: /v1/builds, /v1/china/builds ...). */
  buildLists: (path: string) => ["build-list", path] as const,
  buildList: (path: string, page: number, pageSize: number) =>
    ["build-list", path, page, pageSize] as const,
  build: (id: string) => ["build", id] as const,
  dhEnvironments: (platform: string, type: string, envType: string) =>
    ["dh-environments", platform, type, envType] as const,
  dhRuns: (platform: string, type: string, envType: string, env: string, schema: string) =>
    ["dh-runs", platform, type, envType, env, schema] as const,
  dhRun: (id: number) => ["dh-run", id] as const,
  dhChanges: (id: number) => ["dh-changes", id] as const,
  dhMissingRows: (runId: number, rowId: number) => ["dh-missing-rows", runId, rowId] as const,
};
