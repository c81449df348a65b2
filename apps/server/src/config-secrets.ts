import { readFileSync } from "node:fs";
import type { DataHarmonizationConfig } from "@assay/core";
import { INTEGRATION_SECRETS } from "./modules/integrations/integrations.config.js";
import { ConfigError } from "./config-errors.js";

/**
 * Secrets the configuration names by variable (trackers' tokens, data harmonization's DSNs and
 * keys): read once at start, from the variable or a NAME_FILE, for loadConfig (config.ts).
 */

/**
 * The values of the environment variables data harmonization's sources name (DSNs, keys). Kept
 * out of every serialization, so logging a Config or a source never prints one.
 */
export class DhSecrets {
  readonly #values: ReadonlyMap<string, string>;
  constructor(values: ReadonlyMap<string, string>) {
    this.#values = values;
  }
  get(name: string): string | undefined {
    return this.#values.get(name);
  }
  toJSON(): string {
    return "[redacted]";
  }
}

export interface DataHarmonizationSettings {
  config: DataHarmonizationConfig;
  secrets: DhSecrets;
}

/**
 * A secret by its variable's name: the variable itself, or NAME_FILE naming a file that holds it
 * (Docker and Kubernetes secrets, or a secret store's agent writing files such as Vault Agent
 * or the AWS Secrets Manager CSI driver). Problems name the variable or file, never a value.
 */
function secretValue(
  env: NodeJS.ProcessEnv,
  variable: string,
): { ok: true; value: string } | { ok: false; problem: string } {
  const direct = env[variable];
  if (direct) return { ok: true, value: direct };
  const file = env[`${variable}_FILE`];
  if (!file)
    return {
      ok: false,
      problem: `the environment variable ${variable} is not set (it holds the connection secret, which never goes in the file; or set ${variable}_FILE to a file holding it)`,
    };
  try {
    // One trailing newline is what editors and `echo` add: not part of the secret.
    const value = readFileSync(file, "utf8").replace(/\r?\n$/, "");
    if (value) return { ok: true, value };
    return { ok: false, problem: `${variable}_FILE names an empty file (${file})` };
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    return {
      ok: false,
      problem: `${variable}_FILE names a file Assay cannot read (${file}: ${code})`,
    };
  }
}

/**
 * The environment with the trackers' secrets given as NAME_FILE read into NAME (the variable
 * itself wins when both are set).
 */
export function withIntegrationSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const resolved: NodeJS.ProcessEnv = { ...env };
  const problems: string[] = [];
  for (const variable of INTEGRATION_SECRETS) {
    if (env[variable] || !env[`${variable}_FILE`]) continue;
    const value = secretValue(env, variable);
    if (value.ok) resolved[variable] = value.value;
    else problems.push(value.problem);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return resolved;
}

/** The secrets data harmonization's sources name, read here; a missing one stops the start. */
export function dhSettings(
  config: DataHarmonizationConfig | undefined,
  env: NodeJS.ProcessEnv,
): DataHarmonizationSettings | undefined {
  if (!config) return undefined;
  const values = new Map<string, string>();
  const problems: string[] = [];
  for (const [name, source] of Object.entries(config.sources)) {
    const wanted: string[] = [];
    if ("urlEnv" in source && source.urlEnv) wanted.push(source.urlEnv);
    if (source.kind === "s3") {
      if ((source.accessKeyIdEnv === undefined) !== (source.secretAccessKeyEnv === undefined))
        problems.push(
          `dataHarmonization.sources.${name}: set both accessKeyIdEnv and secretAccessKeyEnv, or neither`,
        );
      for (const v of [source.accessKeyIdEnv, source.secretAccessKeyEnv]) if (v) wanted.push(v);
    }
    for (const variable of wanted) {
      const value = secretValue(env, variable);
      if (value.ok) values.set(variable, value.value);
      else problems.push(`dataHarmonization.sources.${name}: ${value.problem}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { config, secrets: new DhSecrets(values) };
}
