import {
  RMS_PREVIEW_LISTED,
  type RmsImportItem,
  type RmsImportPreview,
  type RmsImportRow,
} from "@assay/core";

/**
 * What an import does to the stored requirements (issue 32): the rule the dry run answers and
 * the import applies, from the same reading, so the preview is what happens. A requirement
 * the source no longer names is archived (kept with its note, flag, links and history); one it
 * names again is restored.
 */

/** A stored requirement as the import compares it; bugs as bugSignature writes them. */
export interface StoredRequirement {
  id: number;
  rms: string;
  summary: string;
  epic: string;
  type: string;
  note: string;
  no_test_needed: boolean;
  archived: boolean;
  bugs: string;
  links: number;
}

type Bug = RmsImportRow["bugs"][number];

/** A row's bugs, one per key (the last wins, as they are stored), in key order. */
export function uniqueBugs(bugs: readonly Bug[]): Bug[] {
  return [...new Map(bugs.map((bug) => [bug.key, bug])).values()];
}

/** Bugs as one comparable text: key|summary|status lines in code-unit order of the key. */
export function bugSignature(bugs: readonly Bug[]): string {
  return uniqueBugs(bugs)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((bug) => `${bug.key}|${bug.summary}|${bug.status}`)
    .join("\n");
}

function item(
  stored: StoredRequirement | undefined,
  row: RmsImportRow | undefined,
  changes: RmsImportItem["changes"] = [],
): RmsImportItem {
  return {
    rms: row?.rms ?? stored?.rms ?? "",
    summary: row?.summary ?? stored?.summary ?? "",
    note: stored?.note ?? "",
    noTestNeeded: stored?.no_test_needed ? 1 : 0,
    links: stored?.links ?? 0,
    changes,
  };
}

/** What a person put on a requirement: those are listed first, the reason for the preview. */
const kept = (item: RmsImportItem) =>
  item.note !== "" || item.noTestNeeded || item.links > 0 ? 0 : 1;

function listOf(items: RmsImportItem[]) {
  items.sort((a, b) => kept(a) - kept(b) || a.rms.localeCompare(b.rms, "en", { numeric: true }));
  return { count: items.length, items: items.slice(0, RMS_PREVIEW_LISTED) };
}

export function planImport(
  current: readonly StoredRequirement[],
  rows: readonly RmsImportRow[],
): RmsImportPreview {
  const byKey = new Map(current.map((stored) => [stored.rms.toUpperCase(), stored]));
  const inFile = new Set<string>();
  const added: RmsImportItem[] = [];
  const changed: RmsImportItem[] = [];
  const restored: RmsImportItem[] = [];
  let unchanged = 0;
  for (const row of rows) {
    const key = row.rms.toUpperCase();
    inFile.add(key);
    const stored = byKey.get(key);
    if (!stored) {
      added.push(item(undefined, row));
      continue;
    }
    const changes: RmsImportItem["changes"] = [];
    if (stored.summary !== row.summary) changes.push("summary");
    if (stored.epic !== row.epic) changes.push("epic");
    if (stored.type !== row.type) changes.push("type");
    if (stored.bugs !== bugSignature(row.bugs)) changes.push("bugs");
    if (stored.archived) restored.push(item(stored, row, changes));
    else if (changes.length > 0) changed.push(item(stored, row, changes));
    else unchanged++;
  }
  const archived = current
    .filter((stored) => !stored.archived && !inFile.has(stored.rms.toUpperCase()))
    .map((stored) => item(stored, undefined));
  return {
    added: listOf(added),
    changed: listOf(changed),
    archived: listOf(archived),
    restored: listOf(restored),
    unchanged,
  };
}
