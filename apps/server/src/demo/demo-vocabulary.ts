import { DEFAULT_DAILY_EXECUTOR, DEFAULT_RERUN_EXECUTOR } from "@assay/core";
/*
 * The words the demo data is made of: the areas of each suite (with the test-id ranges and tags
 * of the example catalogue's subsets, so "By Sub Set" and the Failed Summary's major tags line
 * up with the demo runs), scenario phrases and failure messages.
 */

export type Suite = "legacy" | "nextGen" | "api";

export interface Area {
  /** First test id of the area (TC{id}); tests are numbered from here. */
  base: number;
  tags: readonly string[];
  feature: string;
  /** Folder of the area's feature or spec files. */
  folder: string;
  /** Scenario phrases; combined with a role (UI) or a request (API) to make distinct tests. */
  actions: readonly string[];
}

const area = (base: number, tags: string[], feature: string, folder: string, actions: string[]) =>
  ({ base, tags, feature, folder, actions }) satisfies Area;

export const AREAS: Record<Suite, readonly Area[]> = {
  legacy: [
    area(1001, ["@login"], "Site user login", "login", [
      "signs in with valid credentials",
      "is locked out after five wrong passwords",
      "resets a forgotten password by e-mail",
      "is signed out after 30 minutes idle",
      "switches between two assigned sites",
      "sees the study picker after signing in",
    ]),
    area(2001, ["@security", "@roles"], "Role permissions matrix", "security", [
      "cannot open the audit log without the auditor role",
      "sees only the subjects of their own site",
      "cannot unblind treatment arms",
      "can export data only with the export permission",
      "loses access when the role is revoked",
      "sees read-only forms after database lock",
    ]),
    area(3001, ["@patient"], "Patient interaction", "patient", [
      "enrolls a new subject",
      "screens out a subject who fails eligibility",
      "records an adverse event",
      "edits subject contact details",
      "sends a secure message to the subject",
      "transfers a subject to another site",
      "searches subjects by screening number",
    ]),
    area(4001, ["@econsent"], "eConsent", "econsent", [
      "sends the consent form to a subject",
      "re-consents a subject after an amendment",
      "views the signed consent PDF",
      "records a witness signature",
    ]),
    area(4101, ["@diary"], "Diary and ePRO", "diary", [
      "reviews missed diary entries",
      "assigns a questionnaire schedule",
      "sees compliance by subject",
      "flags a late diary entry",
    ]),
    area(4201, ["@visit"], "Visit schedule", "visit", [
      "schedules the baseline visit",
      "moves a visit inside its window",
      "marks a visit as missed",
      "sees out-of-window visits highlighted",
    ]),
    area(4301, ["@admin"], "Site administration", "admin", [
      "adds a new site user",
      "deactivates a site",
      "edits the site's time zone",
      "imports site users from CSV",
    ]),
    area(4401, ["@reports"], "Study reports", "reports", [
      "exports the enrollment report",
      "filters the query report by site",
      "schedules a weekly data export",
      "downloads the audit trail as CSV",
    ]),
  ],
  nextGen: [
    area(9101, ["@login", "@patient"], "Patient login", "login", [
      "signs in with a one-time code",
      "sets up the app PIN",
      "signs in with biometrics",
      "recovers a locked account",
    ]),
    area(9201, ["@econsent"], "eConsent signing", "econsent", [
      "signs the consent after reading every page",
      "cannot sign before scrolling to the end",
      "downloads the signed consent",
      "withdraws consent",
      "reads the consent in their language",
    ]),
    area(9301, ["@diary"], "Daily diary", "diary", [
      "completes today's diary",
      "gets a reminder for a missed entry",
      "edits an entry within the allowed window",
      "sees the diary history",
    ]),
    area(9401, ["@visit"], "Visits", "visit", [
      "books a visit slot",
      "reschedules a visit",
      "checks in for a visit",
      "sees visit instructions",
    ]),
    area(9501, ["@notifications"], "Notifications", "notifications", [
      "receives a push reminder",
      "mutes reminders for a day",
      "opens a message from the site",
      "changes notification preferences",
    ]),
    area(9601, ["@telehealth"], "Telehealth", "telehealth", [
      "joins a video visit",
      "tests camera and microphone",
      "shares a photo with the site",
      "rejoins after a dropped call",
    ]),
    area(9701, ["@admin"], "Study setup", "admin", [
      "publishes a study version",
      "configures the visit schedule",
      "translates study content",
      "adds a site to the study",
    ]),
    area(9801, ["@reports"], "Dashboards", "dashboards", [
      "filters enrollment by country",
      "exports compliance as CSV",
      "drills into a site's diary compliance",
      "sees the study status summary",
    ]),
  ],
  api: [
    area(7001, ["@smoke"], "Health and smoke", "smoke", ["health", "version", "config"]),
    area(7101, ["@auth", "@login"], "Authentication", "auth", ["token", "refresh", "logout"]),
    area(7201, ["@patient"], "Patients API", "patients", ["patients", "consents", "diaries"]),
    area(7301, ["@study", "@admin"], "Study configuration", "studies", ["studies", "arms"]),
    area(7401, ["@reports"], "Reports API", "reports", ["reports", "exports"]),
    area(7501, ["@notifications"], "Notifications API", "notifications", ["messages"]),
    area(7601, ["@site"], "Sites API", "sites", ["sites", "users"]),
    area(7701, ["@audit"], "Audit trail API", "audit", ["audit-events"]),
  ],
};

export const UI_ROLES = [
  "Site coordinator",
  "Principal investigator",
  "Study admin",
  "Sponsor monitor",
  "Sub-investigator",
  "Site nurse",
  "Data manager",
  "Read-only auditor",
] as const;

export const PATIENT_ROLES = [
  "Patient",
  "Caregiver",
  "Adolescent patient",
  "Patient on Android",
  "Patient on iOS",
  "Patient in Germany",
  "Patient in Japan",
  "Remote patient",
] as const;

/** API test shapes: method, path template, what the test checks and the status it expects. */
export const API_CHECKS = [
  {
    method: "GET",
    path: "/{resource}",
    check: "lists {resource} for a site coordinator",
    status: 200,
  },
  {
    method: "GET",
    path: "/{resource}/{id}",
    check: "returns one of {resource} by id",
    status: 200,
  },
  {
    method: "POST",
    path: "/{resource}",
    check: "creates {resource} with valid fields",
    status: 201,
  },
  {
    method: "POST",
    path: "/{resource}",
    check: "rejects {resource} with a missing field (400)",
    status: 400,
  },
  {
    method: "PATCH",
    path: "/{resource}/{id}",
    check: "updates {resource} and writes an audit",
    status: 200,
  },
  {
    method: "DELETE",
    path: "/{resource}/{id}",
    check: "forbids deleting {resource} (403)",
    status: 403,
  },
  { method: "GET", path: "/{resource}", check: "pages {resource} with a cursor", status: 200 },
  { method: "GET", path: "/{resource}", check: "hides {resource} of other sites", status: 200 },
] as const;

export const HUMANS = [
  "maria.lopez@example.com",
  "james.chen@example.com",
  "priya.nair@example.com",
  "tom.becker@example.com",
] as const;
export const CHINA_EXECUTOR = "wei.zhang@example.com";
/** The catalogue's defaults; loadDemo renames them to the configured dailyRuns names. */
export const DAILY_EXECUTOR = DEFAULT_DAILY_EXECUTOR;
export const RERUN_EXECUTOR = DEFAULT_RERUN_EXECUTOR;

/** Steady failures: a real defect or a known issue. `{ticket}` becomes an NXL ticket. */
export const UI_FAILURES = [
  "Expected element [data-test=submit] to be enabled, but it was disabled",
  "AssertionError: expected 'Visit window closed' to equal 'Visit window open'",
  "Element [data-test=save-entry] not found after 30000ms",
  "Expected 3 rows in the schedule table but found 2",
  "Known issue {ticket}: translated label missing on the summary page",
  "Request failed with status 500: POST /api/v2/visits",
  "Known issue {ticket}: date picker ignores the site time zone",
  "AssertionError: expected toast 'Saved' but saw 'Something went wrong'",
];

/** Flaky failures: timing and infrastructure, gone on a retry. */
export const FLAKY_FAILURES = [
  'TimeoutError: waiting for selector "[data-test=spinner]" to be hidden exceeded 30000ms',
  "StaleElementReferenceError: stale element reference: element is not attached to the page document",
  "net::ERR_CONNECTION_RESET while loading the page",
  "ElementClickInterceptedError: element click intercepted: another element would receive the click",
];

/** Flaky API failures: the gateway or the network, gone on a retry. */
export const API_FLAKY_FAILURES = [
  'expected 200 "OK", got 503 "Service Unavailable"',
  "timeout of 10000ms exceeded",
  "socket hang up (ECONNRESET)",
];

/** Spec 4: a pending test fails with 'Pending reason'; the reason is the text after '=='. */
export const PENDING_REASONS = [
  "Pending reason == Waiting for study build 7.4 on this site",
  "Pending reason == Blocked by {ticket}: SMS gateway sandbox is down",
  "Pending reason == Feature flag telehealth-v2 is off on this site",
  "Pending reason == Test data refresh scheduled for Friday",
];

export const API_FAILURES = [
  'expected 200 "OK", got 500 "Internal Server Error"',
  'expected response body to match schema PatientV2: /birthDate must match format "date"',
  "expected 404, got 403",
  "Known issue {ticket}: audit event is missing the actor id",
  "timeout of 10000ms exceeded",
  "expected 'ACTIVE' to equal 'ENROLLED'",
];

/** What the UI runs ran on, as their reporters write it (JUnit properties, Cucumber metadata). */
export const DEMO_CHROME_VERSION = "126.0.6478.126";
export const DEMO_PLATFORM = "linux";
