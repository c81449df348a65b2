/*
 * A report's own totals (a JUnit header's tests/failures/skipped attributes, Mocha's stats, a
 * CTRF summary) against the tests it lists. Assay always stores the tests listed; when the two
 * disagree the upload says so, with both numbers and the likely cause, because the difference
 * usually means the reporter left tests out (or files were merged) and the run looks complete
 * when it is not.
 */

/** Counts of tests by how they ended; a field a report does not declare is left out. */
export interface Totals {
  tests?: number | undefined;
  passed?: number | undefined;
  failed?: number | undefined;
  skipped?: number | undefined;
}

const FIELDS = ["tests", "passed", "failed", "skipped"] as const;

const LABELS: Record<(typeof FIELDS)[number], string> = {
  tests: "tests",
  passed: "passed",
  failed: "failed",
  skipped: "skipped",
};

/** A count written as an attribute or a JSON number: undefined when absent or not a count. */
export function countOf(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : undefined;
}

function likelyCause(declared: Totals, listed: Required<Totals>): string {
  const missing = (declared.tests ?? listed.tests) - listed.tests;
  const skippedMissing = (declared.skipped ?? listed.skipped) - listed.skipped;
  if (missing > 0 && skippedMissing === missing) {
    return "the reporter was configured to leave skipped or pending tests out of the file";
  }
  if (missing > 0) {
    return "the reporter left some tests out (skipped or pending ones, or tests of a suite that did not finish), or the file was cut short";
  }
  if (missing < 0) {
    return "the reporter lists entries its totals leave out (jest-junit lists test.todo tests without counting them), reports or suites were put together without adding up their totals, or a rerun tool added test cases";
  }
  return "the reporter counts some outcomes differently (an error as a failure, a failed hook as a test)";
}

/**
 * The warning for a report whose declared totals disagree with what it lists, or undefined when
 * every total it declares matches. `unit` names what the report lists ("test cases", "tests").
 */
export function totalsWarning(
  fileName: string,
  declared: Totals,
  listed: Required<Totals>,
  unit: string,
): string | undefined {
  const differing = FIELDS.filter((f) => declared[f] !== undefined && declared[f] !== listed[f]);
  if (differing.length === 0) return undefined;
  const says = differing.map((f) => `${declared[f]!.toLocaleString("en-US")} ${LABELS[f]}`);
  const lists = differing.map((f) => `${listed[f].toLocaleString("en-US")} ${LABELS[f]}`);
  return (
    `${fileName}: the report's totals say ${says.join(", ")}, but it lists ${lists.join(", ")}; ` +
    `the ${listed.tests.toLocaleString("en-US")} ${unit} listed are stored. ` +
    `Likely cause: ${likelyCause(declared, listed)}.`
  );
}

/** Tallies listed tests by how they ended. */
export class ListedTotals implements Required<Totals> {
  tests = 0;
  passed = 0;
  failed = 0;
  skipped = 0;

  add(status: "passed" | "failed" | "skipped"): void {
    this.tests++;
    this[status]++;
  }
}

/** What a JUnit <testsuites> or <testsuite> element declares (errors count as failures). */
function junitDeclared(attrs: Record<string, string>): Totals {
  const failures = countOf(attrs.failures);
  const errors = countOf(attrs.errors);
  return {
    tests: countOf(attrs.tests),
    failed:
      failures === undefined && errors === undefined ? undefined : (failures ?? 0) + (errors ?? 0),
    skipped: countOf(attrs.skipped),
  };
}

/**
 * The totals a JUnit file declares: its root element's, else the sum of the suites below it
 * when those hold no suites themselves (whether an outer suite's totals include its inner
 * suites' differs between reporters: node:test's do not).
 */
export class JunitHeader {
  private root: Totals = {};
  private readonly tops: Totals[] = [];
  private nested = false;

  /** A <testsuites> or <testsuite> element at `depth` (0 for the root). */
  suite(depth: number, attrs: Record<string, string>): void {
    if (depth === 0) this.root = junitDeclared(attrs);
    else if (depth === 1) this.tops.push(junitDeclared(attrs));
    else this.nested = true;
  }

  declared(): Totals {
    const declared: Totals = {};
    for (const field of FIELDS) {
      const tops = this.tops.map((t) => t[field]);
      const all = !this.nested && tops.length > 0 && tops.every((n) => n !== undefined);
      declared[field] =
        this.root[field] ?? (all ? tops.reduce((sum, n) => sum! + n!, 0) : undefined);
    }
    return declared;
  }
}
