import { newBuildToken } from "../src/modules/builds/build-env.js";
import type { TestDatabase } from "./test-database.js";

/**
 * A build row in progress with a live token for run `runKey`, as if a runner had just started:
 * the token a runner gets (ASSAY_TOKEN), for tests of what that token may do.
 */
export async function insertRunningBuild(
  database: TestDatabase,
  runKey: string,
  userId: number,
): Promise<string> {
  const build = newBuildToken();
  await database.db.kysely
    .insertInto("builds")
    .values({
      family: "frontend",
      region: "US",
      executor_kind: "local",
      external_id: null,
      external_url: null,
      test_run_key: runKey,
      rerun_of: null,
      mode: "by_tags",
      test_run_name: "route table",
      executor: "Route Tester",
      source_version: "master",
      test_tag: null,
      nora_site: null,
      environment: null,
      base_url: null,
      env: null,
      host: null,
      test_file: null,
      users: null,
      run_time: null,
      spawn_rate: null,
      payload: JSON.stringify({}),
      started_by_id: userId,
      started_by_email: "route@example.com",
      started_by_name: "Route Tester",
      build_status: "IN_PROGRESS",
      status_message: null,
      end_time: null,
      deadline: new Date(Date.now() + 3_600_000),
      token_hash: build.hash,
      runner_boot: null,
      log_key: null,
      stop_requested_at: null,
      stop_requested_by: null,
      remote_log: null,
    })
    .execute();
  return build.token;
}
