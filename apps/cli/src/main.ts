import { KnownError, UnexpectedError } from "./errors.js";

interface Command {
  run: (argv: string[]) => Promise<void>;
  usage: string;
}

// Each command is loaded when it runs: `upload` must not pay for loading the whole server
// package (about 1.7 s on the project's machine), which start, migrate, tokens and users need.
const commands: Record<string, () => Promise<Command>> = {
  start: async () => {
    const m = await import("./commands/start.js");
    return { run: m.start, usage: m.startUsage };
  },
  migrate: async () => {
    const m = await import("./commands/migrate.js");
    return { run: m.migrateCommand, usage: m.migrateUsage };
  },
  upload: async () => {
    const m = await import("./commands/upload.js");
    return { run: m.upload, usage: m.uploadUsage };
  },
  report: async () => {
    const m = await import("./commands/report.js");
    return { run: m.report, usage: m.reportUsage };
  },
  tokens: async () => {
    const m = await import("./commands/tokens.js");
    return { run: m.tokens, usage: m.tokensUsage };
  },
  rms: async () => {
    const m = await import("./commands/rms.js");
    return { run: m.rms, usage: m.rmsUsage };
  },
  backup: async () => {
    const m = await import("./commands/backup.js");
    return { run: m.backup, usage: m.backupUsage };
  },
  restore: async () => {
    const m = await import("./commands/backup.js");
    return { run: m.restore, usage: m.restoreUsage };
  },
  gate: async () => {
    const m = await import("./commands/gate.js");
    return { run: m.gate, usage: m.gateUsage };
  },
  retention: async () => {
    const m = await import("./commands/retention.js");
    return { run: m.retention, usage: m.retentionUsage };
  },
  users: async () => {
    const m = await import("./commands/users.js");
    return { run: m.users, usage: m.usersUsage };
  },
};

const usage = `Usage: assay <command>

Commands:
  start     start the server (embedded PostgreSQL unless DATABASE_URL is set)
  migrate   apply pending database migrations and exit
  upload    send test reports to a server
  report    save a run as one HTML file that opens offline
  tokens    create, list or revoke service tokens
  rms       import requirements for the Traceability Matrix from a CSV or JSON file
  gate      the quality gate of a run: exit 1 on new or unexplained failures over the limits
  users     add, list, disable users of Assay's own sign-in, or reset their passwords
  backup    write one archive of the database and the object store, while the server serves
  restore   restore such an archive into an empty data folder or database
  retention apply the retention policy now (--dry-run: what would go and what it would return)

Run "assay <command> --help" for a command's options and examples.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h") {
    console.log(usage);
    return name ? 0 : 1;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    console.error(`assay: unknown command "${name}".\n\n${usage}`);
    return 1;
  }
  const command = await load();
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(command.usage);
    return 0;
  }
  try {
    await command.run(rest);
    return 0;
  } catch (error) {
    if (isConfigError(error)) {
      console.error(error.message);
      return 1;
    }
    if (isStartRefused(error)) {
      console.error(`assay: cannot start: ${error.message}`);
      return 1;
    }
    if (error instanceof KnownError || isArgumentError(error)) {
      console.error(`assay: ${error.message}`);
      return 1;
    }
    if (error instanceof UnexpectedError) {
      console.error(`assay: ${error.message}`);
      return 2;
    }
    console.error("assay: unexpected error:", error);
    return 2;
  }
}

/**
 * The server's ConfigError (its settings are invalid), known by its name: importing the class
 * would load the server package for every command.
 */
function isConfigError(error: unknown): error is Error {
  return error instanceof Error && error.name === "ConfigError";
}

/** The server's StartRefused (a key that does not fit the database), known by its name too. */
function isStartRefused(error: unknown): error is Error {
  return error instanceof Error && error.name === "StartRefused";
}

/** node:util parseArgs' complaints (unknown option, missing value) are the user's to fix. */
function isArgumentError(error: unknown): error is Error {
  return (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ?? false;
}

const code = await main(process.argv.slice(2));
// `start` keeps running until a signal; every other command ends here.
if (code !== 0 || process.argv[2] !== "start") process.exit(code);
