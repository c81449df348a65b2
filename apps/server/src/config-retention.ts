import { Cron } from "croner";
import { z } from "zod";

/**
 * The `retention:` key of assay.config.yaml (issue 36): how long results, their details and whole
 * runs are kept, by default and per family and branch. Absent, nothing is ever removed. Each
 * number is a count of days; a period left out means "kept forever" (for that rule, falling back
 * to the default's). docs/configuration.md describes every key.
 */

const FAMILIES = ["frontend", "backend", "load"] as const;

const days = () =>
  z
    .number({ error: "give a whole number of days (for example 30)" })
    .int({ error: "give a whole number of days, without a fraction" })
    .min(1, { error: "give at least 1 day (leave the key out to keep forever)" })
    .max(36_500, { error: "give at most 36500 days (leave the key out to keep forever)" })
    .optional();

/** How long each kind of data is kept, in days; a key left out keeps that kind forever. */
const PeriodsShape = {
  /** Steps and attachments of passed and skipped results. */
  passedDetailsDays: days(),
  /** Steps and attachments of failed results. */
  failedDetailsDays: days(),
  /** Passed and skipped results; a run without failures goes whole (its counts are kept). */
  runsDays: days(),
  /** Failed results and the run that holds them: the run row goes with its last failure. */
  failuresDays: days(),
};

/** Refuses unknown keys with the keys that are known, so a typo says what to write instead. */
const knownKeys = (keys: readonly string[]) => ({
  error: (issue: { code: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys"
      ? `unknown key${issue.keys!.length > 1 ? "s" : ""} ${issue.keys!.map((k) => `"${k}"`).join(", ")}: use ${keys.join(", ")}`
      : undefined,
});

const PERIOD_NAMES = Object.keys(PeriodsShape);
const PeriodsSchema = z.strictObject(PeriodsShape, knownKeys(PERIOD_NAMES));

const RuleSchema = z.strictObject(
  {
    /** The rule applies to runs of this family only. */
    family: z.enum(FAMILIES, { error: `use one of ${FAMILIES.join(", ")}` }).optional(),
    /** The rule applies to runs of branches matching this pattern: * stands for any characters. */
    branch: z
      .string()
      .min(1, { error: "give a branch name or a pattern such as release/*" })
      .optional(),
    ...PeriodsShape,
  },
  knownKeys(["family", "branch", ...PERIOD_NAMES]),
);

const isCron = (text: string) => {
  try {
    new Cron(text, { paused: true });
    return true;
  } catch {
    return false;
  }
};

export const RetentionFileSchema = z
  .strictObject(
    {
      /** When the nightly pass runs (cron, UTC). */
      schedule: z
        .string()
        .refine(isCron, {
          error: 'give a cron expression such as "30 3 * * *" (03:30 UTC)',
        })
        .default("30 3 * * *"),
      default: PeriodsSchema.default({}),
      /** The first rule that matches a run decides its periods; what it leaves out, the default does. */
      rules: z.array(RuleSchema).default([]),
    },
    knownKeys(["schedule", "default", "rules"]),
  )
  .superRefine((value, ctx) => {
    const check = (periods: Periods, at: (string | number)[]) => {
      for (const problem of orderProblems(periods))
        ctx.addIssue({ code: "custom", path: at, message: problem });
    };
    check(value.default, ["default"]);
    value.rules.forEach((rule, i) => {
      if (rule.family === undefined && rule.branch === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["rules", i],
          message:
            "a rule needs family or branch (or both); periods for every run go under retention.default",
        });
      check({ ...value.default, ...definedOnly(rule) }, ["rules", i]);
    });
  });

export type RetentionFile = z.infer<typeof RetentionFileSchema>;
export type Periods = z.infer<typeof PeriodsSchema>;
export type RetentionRule = z.infer<typeof RuleSchema>;

const PERIOD_KEYS = PERIOD_NAMES as (keyof Periods)[];

function definedOnly(rule: RetentionRule): Periods {
  const out: Periods = {};
  for (const key of PERIOD_KEYS) if (rule[key] !== undefined) out[key] = rule[key];
  return out;
}

/** A period that ends before one it depends on would remove data its longer period keeps. */
function orderProblems(p: Periods): string[] {
  const problems: string[] = [];
  const pairs: [keyof Periods, keyof Periods, string][] = [
    ["passedDetailsDays", "runsDays", "a passed result's details go before or with the result"],
    ["failedDetailsDays", "failuresDays", "a failure's details go before or with the failure"],
    ["runsDays", "failuresDays", "failures are kept at least as long as their run's other results"],
  ];
  for (const [shorter, longer, why] of pairs) {
    const a = p[shorter];
    const b = p[longer];
    if (a !== undefined && b !== undefined && a > b)
      problems.push(
        `${shorter} (${a}) is longer than ${longer} (${b}): ${why}; lower ${shorter} or raise ${longer}`,
      );
  }
  if (p.failuresDays !== undefined && p.runsDays === undefined)
    problems.push(
      `failuresDays (${p.failuresDays}) is set but runsDays is not: passed results would outlive the failures of their run; set runsDays too`,
    );
  return problems;
}

/** The policy the server and `assay retention` apply: undefined when the file has no `retention:`. */
export interface RetentionPolicy {
  schedule: string;
  default: Periods;
  rules: RetentionRule[];
}

export function readRetentionPolicy(file: RetentionFile | undefined): RetentionPolicy | undefined {
  if (!file) return undefined;
  return { schedule: file.schedule, default: file.default, rules: file.rules };
}

/** `*` matches any characters (slashes too); everything else matches itself. */
function branchMatches(pattern: string, branch: string | null): boolean {
  if (branch === null) return false;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(branch);
}

/** The periods of a run of `family` on `branch`: the first matching rule over the default. */
export function periodsFor(
  policy: RetentionPolicy,
  family: string,
  branch: string | null,
): Periods {
  const rule = policy.rules.find(
    (r) =>
      (r.family === undefined || r.family === family) &&
      (r.branch === undefined || branchMatches(r.branch, branch)),
  );
  return rule ? { ...policy.default, ...definedOnly(rule) } : policy.default;
}
