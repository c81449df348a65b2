import { NotifyRuleBodySchema, type NotifyRuleBody } from "@assay/core";
import { z } from "zod";

/**
 * assay.config.yaml's `notifications:` list. A rule's secret (webhook URL, SMTP password) is
 * never written in the file: `secretEnv` names the environment variable holding it.
 */
export const NotifyFileSchema = z
  .array(
    NotifyRuleBodySchema.omit({ secret: true }).extend({
      secretEnv: z
        .string()
        .regex(
          /^[A-Z_][A-Z0-9_]*$/,
          "secretEnv is an environment variable's name, e.g. SLACK_QA_WEBHOOK",
        )
        .optional()
        .describe("The variable holding the webhook URL or SMTP password"),
    }),
  )
  .optional();

/**
 * ASSAY_NOTIFY_SETTLE_SECONDS: how long an uploaded run's notification waits for more uploads
 * (shards) into the same run; each one starts the wait again.
 */
export const DEFAULT_SETTLE_SECONDS = 60;
const MAX_SETTLE_SECONDS = 3600;

/** The file's rules with their secrets; kept out of every serialization of the Config. */
export class NotifyConfig {
  readonly #rules: readonly NotifyRuleBody[];
  constructor(
    rules: readonly NotifyRuleBody[],
    readonly settleSeconds = DEFAULT_SETTLE_SECONDS,
  ) {
    this.#rules = rules;
  }
  rules(): readonly NotifyRuleBody[] {
    return this.#rules;
  }
  toJSON(): string {
    return `[${this.#rules.length} notification rule(s), settle ${this.settleSeconds} s]`;
  }
}

/**
 * Reads each rule's secret from the environment (a variable named but unset is a problem) and
 * ASSAY_NOTIFY_SETTLE_SECONDS.
 */
export function readNotifyConfig(
  file: z.infer<typeof NotifyFileSchema>,
  env: NodeJS.ProcessEnv,
): NotifyConfig | { problems: string[] } {
  const problems: string[] = [];
  const rules = (file ?? []).map(({ secretEnv, ...rule }) => {
    const secret = secretEnv ? env[secretEnv] : undefined;
    if (secretEnv && !secret)
      problems.push(
        `notifications "${rule.name}": the variable ${secretEnv} (secretEnv) is not set`,
      );
    return { ...rule, ...(secret ? { secret } : {}) };
  });
  const settle = env.ASSAY_NOTIFY_SETTLE_SECONDS?.trim();
  const settleSeconds = settle ? Number(settle) : DEFAULT_SETTLE_SECONDS;
  if (!Number.isInteger(settleSeconds) || settleSeconds < 0 || settleSeconds > MAX_SETTLE_SECONDS)
    problems.push(
      `ASSAY_NOTIFY_SETTLE_SECONDS: expected whole seconds from 0 to ${MAX_SETTLE_SECONDS}, got "${settle}"`,
    );
  return problems.length > 0 ? { problems } : new NotifyConfig(rules, settleSeconds);
}
