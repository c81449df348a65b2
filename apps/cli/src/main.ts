import { ConfigError } from "@assay/server";
import { migrateCommand, migrateUsage } from "./commands/migrate.js";
import { start, startUsage } from "./commands/start.js";
import { tokens, tokensUsage } from "./commands/tokens.js";
import { upload, uploadUsage } from "./commands/upload.js";
import { users, usersUsage } from "./commands/users.js";
import { KnownError } from "./errors.js";

const commands: Record<string, { run: (argv: string[]) => Promise<void>; usage: string }> = {
  start: { run: start, usage: startUsage },
  migrate: { run: migrateCommand, usage: migrateUsage },
  upload: { run: upload, usage: uploadUsage },
  tokens: { run: tokens, usage: tokensUsage },
  users: { run: users, usage: usersUsage },
};

const usage = `Usage: assay <command>

Commands:
  start     start the server (embedded PostgreSQL unless DATABASE_URL is set)
  migrate   apply pending database migrations and exit
  upload    send test reports to a server
  tokens    create, list or revoke service tokens
  users     add, list, disable users of Assay's own sign-in, or reset their passwords

Run "assay <command> --help" for a command's options and examples.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h") {
    console.log(usage);
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    console.error(`assay: unknown command "${name}".\n\n${usage}`);
    return 1;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(command.usage);
    return 0;
  }
  try {
    await command.run(rest);
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    if (error instanceof KnownError || isArgumentError(error)) {
      console.error(`assay: ${error.message}`);
      return 1;
    }
    console.error("assay: unexpected error:", error);
    return 2;
  }
}

/** node:util parseArgs' complaints (unknown option, missing value) are the user's to fix. */
function isArgumentError(error: unknown): error is Error {
  return (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ?? false;
}

const code = await main(process.argv.slice(2));
// `start` keeps running until a signal; every other command ends here.
if (code !== 0 || process.argv[2] !== "start") process.exit(code);
