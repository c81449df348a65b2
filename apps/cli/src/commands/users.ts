import { emitKeypressEvents } from "node:readline";
import { parseArgs } from "node:util";
import {
  AppError,
  createLogger,
  createUser,
  disableUser,
  listUsers,
  loadConfig,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  resetPassword,
  withDatabase,
  type UserRow,
} from "@assay/server";
import { KnownError } from "../errors.js";

export const usersUsage = `Usage: assay users add --email EMAIL --name NAME [--admin]
       assay users list
       assay users disable --email EMAIL
       assay users reset-password --email EMAIL

Accounts of Assay's own sign-in (the embedded identity provider; not used when OIDC_ISSUER is
set). There is no sign-up: an admin adds each user. "add" asks for the password when run in a
terminal (input hidden; leave it empty to generate one), otherwise it generates one and prints
it once. "reset-password" generates a new one, prints it once and lifts the sign-in attempt
limit. "disable" stops the user from signing in and ends their sessions.

Examples:
  npx assay users add --email ana@example.com --name "Ana Lima"
  npx assay users add --email ops@example.com --name Ops --admin
  npx assay users list
  npx assay users reset-password --email ana@example.com
  npx assay users disable --email ana@example.com`;

const ACTIONS = ["add", "list", "disable", "reset-password"] as const;

const options = {
  email: { type: "string" },
  name: { type: "string" },
  admin: { type: "boolean", default: false },
} as const;

/** Reads a line from the terminal without echoing it. */
function readHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error?: Error) => {
      input.off("keypress", onKey);
      input.setRawMode(false);
      input.pause();
      process.stdout.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean } = {}) => {
      if (key.ctrl && (key.name === "c" || key.name === "d")) finish(new KnownError("cancelled."));
      else if (key.name === "return" || key.name === "enter") finish();
      else if (key.name === "backspace") value = value.slice(0, -1);
      else if (text && !key.ctrl && text >= " ") value += text;
    };
    // Echo off before the prompt shows, so that nothing typed early is displayed.
    emitKeypressEvents(input);
    input.setRawMode(true);
    input.resume();
    input.on("keypress", onKey);
    process.stdout.write(prompt);
  });
}

/** The password typed twice on a terminal; undefined means "generate one". */
async function askPassword(): Promise<string | undefined> {
  const first = await readHidden(
    `Password (${MIN_PASSWORD_LENGTH}-${MAX_PASSWORD_LENGTH} characters; empty to generate one): `,
  );
  if (first === "") return undefined;
  if (first.length < MIN_PASSWORD_LENGTH || first.length > MAX_PASSWORD_LENGTH) {
    throw new KnownError(
      `a password is ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters; nothing was changed.`,
    );
  }
  if ((await readHidden("Repeat it: ")) !== first) {
    throw new KnownError("the two passwords differ; nothing was changed.");
  }
  return first;
}

function printTable(rows: readonly UserRow[]): void {
  const lines = rows.map((u) => [
    u.email,
    u.name,
    u.is_admin ? "admin" : "user",
    u.disabled_at ? `disabled ${u.disabled_at.toISOString()}` : "active",
    u.created_at.toISOString(),
  ]);
  const header = ["EMAIL", "NAME", "ROLE", "STATE", "CREATED"];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  for (const line of [header, ...lines]) {
    console.log(
      line
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    );
  }
}

export async function users(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options,
    allowPositionals: true,
    strict: true,
  });
  const action = positionals[0] as (typeof ACTIONS)[number] | undefined;
  if (!action || !ACTIONS.includes(action)) {
    throw new KnownError(
      `say what to do with users: add, list, disable or reset-password.\n\n${usersUsage}`,
    );
  }
  if (action !== "list" && !values.email) {
    throw new KnownError(`users ${action} needs --email EMAIL.`);
  }
  if (action === "add" && !values.name) throw new KnownError("users add needs --name NAME.");
  const config = loadConfig();
  if (config.oidcIssuer) {
    console.error(
      `Note: sign-in uses OIDC_ISSUER (${config.oidcIssuer}); these accounts are used only by Assay's own sign-in.`,
    );
  }
  // Asked before the database opens, so nothing waits on a person typing.
  const typed = action === "add" && process.stdin.isTTY ? await askPassword() : undefined;
  // Logs would interleave with the output; only problems are worth showing here.
  const log = createLogger("warn");
  await withDatabase(config, log, async (db) => {
    try {
      if (action === "add") {
        const created = await createUser(db.kysely, {
          email: values.email!,
          name: values.name!,
          password: typed,
          admin: values.admin,
        });
        const role = created.user.is_admin ? "admin" : "user";
        console.log(`Added ${role} ${created.user.email} (${created.user.name}).`);
        if (created.generatedPassword) {
          console.log("Their password, shown this once:");
          console.log(created.generatedPassword);
        }
      } else if (action === "reset-password") {
        const reset = await resetPassword(db.kysely, values.email!);
        console.log(`New password for ${reset.user.email}, shown this once:`);
        console.log(reset.password);
        console.log("Their sessions have ended; they sign in again with it.");
      } else if (action === "disable") {
        const user = await disableUser(db.kysely, values.email!);
        console.log(`Disabled ${user.email}: they cannot sign in, and their sessions have ended.`);
      } else {
        const rows = await listUsers(db.kysely);
        if (rows.length === 0) {
          console.log(
            "No users yet: add one with `npx assay users add --email EMAIL --name NAME`.",
          );
        } else printTable(rows);
      }
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) throw new KnownError(error.message);
      throw error;
    }
  });
}
