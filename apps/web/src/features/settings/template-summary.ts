import type { BuildTemplate } from "@assay/core";

const FAMILY: Record<BuildTemplate["family"], string> = {
  frontend: "Frontend",
  backend: "Backend",
  load: "Load",
};

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/**
 * A schedule's build in words, for its row and for Run now's question: the family (and China),
 * the run type, where it runs and the branch, e.g. "Frontend build (run_all on dev1, branch
 * master)".
 */
export function templateSummary(template: BuildTemplate | null): string {
  if (!template) return "no build";
  const { payload } = template;
  const kind =
    text(payload.mode) ??
    text(payload.runType) ??
    (template.family === "load" ? "general" : "run_all");
  const where = text(payload.nora_site) ?? text(payload.env);
  const branch = text(payload.branch);
  const family = `${FAMILY[template.family]}${template.region === "CHINA" ? " (China region)" : ""}`;
  const details = [kind + (where ? ` on ${where}` : ""), branch ? `branch ${branch}` : null];
  return `${family} build (${details.filter((part) => part !== null).join(", ")})`;
}
