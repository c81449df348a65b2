import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Db } from "../db/pool.js";
import { notifyKey } from "../modules/notify/notify.register.js";
import { createRule, listRules, type NotifyDeps } from "../modules/notify/notify.service.js";
import type { NotifyRuleBody } from "@assay/core";

/**
 * Two notification rules so the Setting screen's Notifications section shows what rules look
 * like on a fresh demo. Both are off and point at .invalid names (RFC 2606: never resolvable),
 * so nothing is ever sent; their names say they are the demo's.
 */
export const DEMO_NOTIFY_RULES: NotifyRuleBody[] = [
  {
    name: "Demo: Slack on failed UI runs (sends nowhere)",
    channel: "slack",
    when: "failure",
    filters: { family: "frontend" },
    isActive: false,
    secret: "https://hooks.slack.invalid/services/DEMO/DEMO/demo-not-a-real-hook",
  },
  {
    name: "Demo: email QA leads on new API failures (sends nowhere)",
    channel: "email",
    when: "new_failures",
    filters: { family: "backend" },
    isActive: false,
    email: {
      host: "smtp.demo.invalid",
      port: 587,
      secure: false,
      from: "assay@demo.invalid",
      to: ["qa-leads@demo.invalid"],
    },
  },
];

export async function addDemoNotifyRules(deps: {
  config: Config;
  db: Db;
  secret: Buffer;
  log: Logger;
}): Promise<void> {
  const notify: NotifyDeps = {
    db: deps.db,
    key: notifyKey(deps.secret),
    publicUrl: deps.config.publicUrl,
    policy: { allowPrivate: deps.config.webhookAllowPrivate },
    // Never read: the demo's rules send nothing.
    failureGroups: { groups: async () => [] },
    log: deps.log,
  };
  // A first load stopped before its first run, then started again, finds its rules there.
  const existing = new Set((await listRules(notify)).rules.map((rule) => rule.name));
  for (const rule of DEMO_NOTIFY_RULES) {
    if (!existing.has(rule.name)) await createRule(notify, rule, "demo");
  }
}
