import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { ExecutorSettings } from "./builds.config.js";
import { BUILD_TOKEN_PREFIX } from "./build-env.js";

/**
 * Secrets the server hands a build never reach a reader of its log: every ASSAY_TOKEN (by its
 * prefix, so a token of an earlier try is masked too), the Spira credentials of the user who
 * started it, and the executors' credentials, are replaced by MASK in the stored log and in
 * every tail and download.
 */
export const MASK = "***";

/** Shorter values are not masked: they would blank ordinary words of the log. */
const MIN_SECRET_LENGTH = 6;
/** A build token: its prefix and 43 base64url characters (32 random bytes). */
const TOKEN_LENGTH = BUILD_TOKEN_PREFIX.length + 43;
const TOKEN = `${BUILD_TOKEN_PREFIX}[A-Za-z0-9_-]{43}`;

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Names of server variables that hold an executor's credentials or a runner's secrets. */
const SECRET_NAME = /(SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE|_KEY$|^KEY$)/;

/** The server environment's values a build could print: its executors' credential variables. */
export function executorSecrets(
  executors: readonly ExecutorSettings[],
  serverEnv: NodeJS.ProcessEnv,
): string[] {
  const names = new Set<string>();
  for (const executor of executors) {
    if (executor.kind === "local") executor.passEnv.forEach((name) => names.add(name));
    if (executor.kind === "github") names.add(executor.tokenEnv);
    if (executor.kind === "codebuild") {
      const prefix = executor.credentialsEnvPrefix ?? "AWS";
      names.add(`${prefix}_SECRET_ACCESS_KEY`);
      names.add(`${prefix}_SESSION_TOKEN`);
    }
  }
  return [...names]
    .filter((name) => SECRET_NAME.test(name))
    .map((name) => serverEnv[name])
    .filter((value): value is string => value !== undefined);
}

export class SecretMask {
  private readonly pattern: RegExp;
  /** A secret can be cut by a chunk's end: this much text waits for the next chunk. */
  readonly longest: number;

  constructor(secrets: readonly string[]) {
    const values = [
      ...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH)),
    ].sort((a, b) => b.length - a.length);
    this.pattern = new RegExp([TOKEN, ...values.map(escape)].join("|"), "g");
    this.longest = Math.max(TOKEN_LENGTH, ...values.map((value) => value.length));
  }

  apply(text: string): string {
    return text.replace(this.pattern, MASK);
  }

  /** Masks a stream of text; the last longest-1 characters wait until more come or it ends. */
  stream(): Transform {
    let carry = "";
    const keep = this.longest - 1;
    // A character cut by a chunk's end is decoded whole with the next chunk.
    const decoder = new StringDecoder("utf8");
    return new Transform({
      decodeStrings: true,
      transform: (chunk: Buffer, _encoding, done) => {
        const text = this.apply(carry + decoder.write(chunk));
        const cut = Math.max(0, text.length - keep);
        carry = text.slice(cut);
        done(null, text.slice(0, cut));
      },
      flush: (done) => done(null, this.apply(carry + decoder.end())),
    });
  }
}
