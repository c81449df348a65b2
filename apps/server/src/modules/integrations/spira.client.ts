import { TrackerError, TrackerHttp, type TrackerHttpOptions } from "./tracker-http.js";

/**
 * SpiraTest / SpiraPlan REST v7 (../shared/reference/integrations.md §2): `username` and
 * `api-key` headers (the RSS token, braces included), JSON asked for explicitly (Spira answers
 * XML otherwise), 1-based rows with per-resource parameter names, errors as 404 with text.
 */

export interface SpiraSettings {
  /** Up to the REST root, e.g. https://spira.example.com/Services/v7_0/RestService.svc/ */
  baseUrl: string;
  projectId: number;
  /** The service account (sync, and users without their own credentials). */
  serviceUser: string | undefined;
  serviceApiKey: string | undefined;
  timeoutMs: number;
}

export interface SpiraCredentials {
  username: string;
  apiKey: string;
}

export interface SpiraReleaseRecord {
  ReleaseId: number;
  Name: string;
  VersionNumber: string;
  FullName?: string;
  Active?: boolean;
  IndentLevel?: string;
}

export interface SpiraRequirementRecord {
  RequirementId: number;
  Name: string;
  StatusName?: string;
  RequirementTypeName?: string;
  ReleaseVersionNumber?: string;
  /** Three letters per level of the hierarchy, e.g. AAB then AABAAA for its first child. */
  IndentLevel?: string;
  /** True for a requirement that has children (a folder of requirements, not one to test). */
  Summary?: boolean;
}

const ROWS_PER_CALL = 500;

export class SpiraClient {
  constructor(
    readonly settings: SpiraSettings,
    private readonly options: Partial<Pick<TrackerHttpOptions, "sleep" | "maxRetries">> = {},
  ) {}

  get origin(): string {
    return new URL(this.settings.baseUrl).origin;
  }

  /** The service account's credentials, when both are set. */
  get serviceCredentials(): SpiraCredentials | undefined {
    const { serviceUser, serviceApiKey } = this.settings;
    return serviceUser && serviceApiKey
      ? { username: serviceUser, apiKey: serviceApiKey }
      : undefined;
  }

  private http(credentials: SpiraCredentials): TrackerHttp {
    return new TrackerHttp({
      tracker: "Spira",
      baseUrl: this.settings.baseUrl,
      headers: { username: credentials.username, "api-key": credentials.apiKey },
      timeoutMs: this.settings.timeoutMs,
      maxRetries: this.options.maxRetries ?? 3,
      maxRetryWaitMs: 60_000,
      sleep: this.options.sleep,
    });
  }

  /** The project's active releases, in Spira's hierarchy order, FullName filled in. */
  async releases(credentials: SpiraCredentials): Promise<SpiraReleaseRecord[]> {
    const rows = await this.http(credentials).json<SpiraReleaseRecord[]>(
      "GET",
      `projects/${this.settings.projectId}/releases?active_only=true`,
    );
    return rows.map((row) => ({
      ...row,
      FullName: row.FullName ?? `${row.Name} ${row.VersionNumber}`.trim(),
    }));
  }

  /**
   * Every requirement of the project in hierarchy order, 500 rows a call (starting_row is
   * 1-based); `onPage` hears how many were read so far.
   */
  async requirements(
    credentials: SpiraCredentials,
    onPage?: (read: number) => Promise<unknown>,
  ): Promise<SpiraRequirementRecord[]> {
    const http = this.http(credentials);
    const all: SpiraRequirementRecord[] = [];
    for (let start = 1; ; start += ROWS_PER_CALL) {
      const page = await http.json<SpiraRequirementRecord[]>(
        "GET",
        `projects/${this.settings.projectId}/requirements?starting_row=${start}&number_of_rows=${ROWS_PER_CALL}`,
      );
      if (!Array.isArray(page))
        throw new TrackerError("Spira", 200, "Spira answered requirements that are not a list.");
      all.push(...page);
      await onPage?.(all.length);
      if (page.length < ROWS_PER_CALL) return all;
    }
  }
}
