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

/** The file's rules with their secrets; kept out of every serialization of the Config. */
export class NotifyConfig {
  readonly #rules: readonly NotifyRuleBody[];
  constructor(rules: readonly NotifyRuleBody[]) {
    this.#rules = rules;
  }
  rules(): readonly NotifyRuleBody[] {
    return this.#rules;
  }
  toJSON(): string {
    return `[${this.#rules.length} notification rule(s)]`;
  }
}

/** Reads each rule's secret from the environment; a variable named but unset is a problem. */
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
  return problems.length > 0 ? { problems } : new NotifyConfig(rules);
}
