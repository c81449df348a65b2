import { createLogger, loadConfig, startServer, type FirstAdmin } from "@assay/server";
import { explainStartError, KnownError } from "../errors.js";
import { launcherChain, watchLauncher } from "../launcher.js";

export const startUsage = `Usage: assay start

Starts the Assay server: the embedded PostgreSQL (unless DATABASE_URL is set), pending
migrations, the API and the web app, on PORT (default 8080). Ctrl-C stops everything.

Examples:
  npm start                                   (from the repository root)
  PORT=9000 npx assay start
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/assay npx assay start`;

/** The admin made on the first start: on stdout, once, and never through the logger. */
function printFirstAdmin(admin: FirstAdmin): void {
  console.log("");
  console.log(`No users yet, so Assay made an admin to sign in with: ${admin.email}`);
  if (admin.generatedPassword) {
    console.log(`Password (shown this once; keep it somewhere safe): ${admin.generatedPassword}`);
    console.log(
      `A new one: npx assay users reset-password --email ${admin.email}. More users: npx assay users add.`,
    );
  } else {
    console.log("Its password is the one in ASSAY_ADMIN_PASSWORD.");
  }
  console.log("");
}

/**
 * Runs until SIGINT or SIGTERM (or until the npm that launched it exits, or passes a SIGINT on to
 * the shell it runs Assay in: see watchLauncher), then shuts down in order: HTTP, pool, PostgreSQL.
 */
export async function start(): Promise<void> {
  const launcher = launcherChain();
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  let server;
  try {
    server = await startServer(config, log);
  } catch (error) {
    const known = explainStartError(error, config.port);
    if (known) throw new KnownError(known);
    throw error;
  }
  console.log(`Assay is listening on ${server.url} (${server.database}).`);
  if (config.publicUrl !== server.url) {
    console.log(`Open it at ${config.publicUrl} (ASSAY_PUBLIC_URL): sign-in returns there.`);
  }
  console.log(`Catalogue from ${config.configPath}. Press Ctrl-C to stop.`);
  if (server.firstAdmin) printFirstAdmin(server.firstAdmin);

  const running = server;
  let stopping = false;
  let unwatch = () => {};
  let stoppingSince = 0;
  const stop = (reason: string) => {
    if (stopping) {
      // Ctrl-C in a terminal reaches npm and this process, and npm forwards its copy: a repeat
      // within a second is the same press, not a second request.
      if (Date.now() - stoppingSince < 1000) return;
      console.error(`${reason} again: exiting without waiting.`);
      process.exit(130);
    }
    stopping = true;
    stoppingSince = Date.now();
    // npm may end or pass a signal on while the server stops: that is this stop, not another.
    unwatch();
    console.log(`${reason}: finishing open requests, then stopping.`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("Received SIGINT"));
  process.on("SIGTERM", () => stop("Received SIGTERM"));
  unwatch = watchLauncher(launcher, {
    gone: () => stop("npm, which started Assay, has exited"),
    interrupted: () => stop("Received SIGINT (passed on by npm to the shell it runs Assay in)"),
  });
}
