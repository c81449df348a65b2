import type { Alias, AliasSuggestion, AliasTestRef } from "@assay/core";
import type pg from "pg";
import { withTransaction, type Db } from "../../db/pool.js";
import { AppError, badRequest, notFound } from "../../errors.js";
import * as repo from "./aliases.repo.js";
import type { AliasRow, NewAlias, Queryable, TestRow } from "./aliases.repo.js";
import * as suggestions from "./suggestions.repo.js";
import type { SuggestionRow } from "./suggestions.repo.js";

/**
 * Renamed tests keep their history (issue 35; docs/aliases.md): aliases made by hand, from a
 * confirmed suggestion or at ingest from a stable key, and their undo. Reads elsewhere resolve
 * old tests through canonicalTestIds / the test_alias_canonical view.
 */

const conflict = (message: string) => new AppError(409, "conflict", message);
const tc = (id: number) => `TC${id}`;

/**
 * For each id that is an alias (live, through chains), the test it now is; ids that are not
 * aliased are absent. The lookup other modules (flaky, diff) use to follow renames.
 */
export function canonicalTestIds(
  db: Db | Queryable,
  ids: readonly number[],
): Promise<Map<number, number>> {
  return repo.canonicalOf("pool" in db ? db.pool : db, ids);
}

/** A test's whole group: the test it resolves to, and every test that resolves to that one. */
export async function aliasGroup(
  db: Db,
  testId: number,
): Promise<{ canonical: number; members: number[] }> {
  const canonical = (await repo.canonicalOf(db.pool, [testId])).get(testId) ?? testId;
  const members = [canonical, ...(await repo.aliasedTo(db.pool, canonical))];
  return { canonical, members };
}

/**
 * aliasGroup for many tests in one read: each of `ids` that belongs to a group of more than one
 * test, with that group's members (canonical first); tests never renamed are absent.
 */
export async function aliasGroups(
  db: Db | Queryable,
  ids: readonly number[],
): Promise<Map<number, number[]>> {
  const groups = new Map<number, number[]>();
  for (const row of await repo.groupsOf("pool" in db ? db.pool : db, ids)) {
    const members = groups.get(row.id) ?? [row.canonical];
    members.push(row.member);
    groups.set(row.id, members);
  }
  return groups;
}

const ref = (id: number, title: string, file: string | null): AliasTestRef => ({ id, title, file });

function toAlias(row: AliasRow): Alias {
  return {
    id: row.id,
    test: ref(row.test_id, row.test_title, row.test_file),
    canonical: ref(row.canonical_id, row.canonical_title, row.canonical_file),
    source: row.source,
    stableKey: row.stable_key,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    undoneBy: row.undone_by,
    undoneAt: row.undone_at?.toISOString() ?? null,
  };
}

export function toSuggestion(row: SuggestionRow): AliasSuggestion {
  return {
    id: row.id,
    test: ref(row.test_id, row.test_title, row.test_file),
    canonical: ref(row.canonical_id, row.canonical_title, row.canonical_file),
    runKey: row.run_key,
    createdAt: row.created_at.toISOString(),
    decision: row.decision,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

export async function listAliases(
  db: Db,
  query: { testId?: number; undone?: "true" | "false" },
): Promise<Alias[]> {
  let group: number[] | undefined;
  if (query.testId !== undefined) {
    await requireTests(db.pool, [query.testId]);
    // The group's members and, for the journal, every test an alias of it ever named.
    group = (await aliasGroup(db, query.testId)).members;
  }
  const rows = await repo.listAliases(db.pool, { undone: query.undone === "true", group });
  return rows.map(toAlias);
}

async function requireTests(db: Queryable, ids: readonly number[]): Promise<Map<number, TestRow>> {
  const found = new Map((await repo.findTests(db, ids)).map((t) => [t.id, t]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw notFound(
      `No test ${missing.map(tc).join(" or ")}: check the test's number on its detail.`,
    );
  }
  return found;
}

/**
 * Makes `alias.testId` an alias of `alias.canonicalId` inside `client`'s transaction, refusing
 * what would make the map wrong: a test aliased to itself, across families, twice, or in a cycle.
 */
export async function addAlias(client: pg.PoolClient, alias: NewAlias): Promise<number> {
  const { testId, canonicalId } = alias;
  if (testId === canonicalId) {
    throw badRequest(
      `A test cannot be an alias of itself (${tc(testId)}): pick the test it became.`,
    );
  }
  const tests = await requireTests(client, [testId, canonicalId]);
  const [old, now] = [tests.get(testId)!, tests.get(canonicalId)!];
  if (old.family !== now.family) {
    throw badRequest(
      `${tc(testId)} is a ${old.family} test and ${tc(canonicalId)} a ${now.family} one: an alias joins tests of one family.`,
    );
  }
  await repo.lockAliases(client);
  const live = await repo.liveAliasOf(client, testId);
  if (live) {
    throw conflict(
      `${tc(testId)} is already an alias of ${tc(live.canonical_id)} (alias ${live.id}): undo that alias first.`,
    );
  }
  const target = (await repo.canonicalOf(client, [canonicalId])).get(canonicalId) ?? canonicalId;
  if (target === testId) {
    throw conflict(
      `${tc(canonicalId)} already resolves to ${tc(testId)}: aliasing ${tc(testId)} to it would make a cycle. Undo the alias of ${tc(canonicalId)} first.`,
    );
  }
  return repo.insertAlias(client, alias);
}

export async function createAlias(
  db: Db,
  body: { testId: number; canonicalTestId: number },
  by: string,
): Promise<Alias> {
  const id = await withTransaction(db, (client) =>
    addAlias(client, {
      testId: body.testId,
      canonicalId: body.canonicalTestId,
      source: "manual",
      createdBy: by,
    }),
  );
  return toAlias((await repo.findAlias(db.pool, id))!);
}

/** Undoes a live alias: the old test's results are its own again. A confirmed suggestion reopens. */
export async function undoAlias(db: Db, id: number, by: string): Promise<Alias> {
  await withTransaction(db, async (client) => {
    await repo.lockAliases(client);
    const alias = await repo.findAlias(client, id);
    if (!alias) throw notFound(`No alias ${id}.`);
    if (alias.undone_at) {
      throw conflict(
        `Alias ${id} was already undone by ${alias.undone_by} on ${alias.undone_at.toISOString()}.`,
      );
    }
    await repo.markUndone(client, id, by);
    if (alias.suggestion_id !== null) {
      await suggestions.decideSuggestion(client, alias.suggestion_id, null, null);
    }
  });
  return toAlias((await repo.findAlias(db.pool, id))!);
}

export async function listSuggestions(db: Db, all: boolean): Promise<AliasSuggestion[]> {
  return (await suggestions.listSuggestions(db.pool, all)).map(toSuggestion);
}

async function openSuggestion(client: pg.PoolClient, id: number): Promise<SuggestionRow> {
  const found = await suggestions.findSuggestion(client, id);
  if (!found) throw notFound(`No alias suggestion ${id}.`);
  if (found.decision) {
    throw conflict(`Suggestion ${id} was already ${found.decision} by ${found.decided_by}.`);
  }
  return found;
}

/** Confirms a suggestion in one step: the alias is made and the suggestion marked confirmed. */
export async function confirmSuggestion(db: Db, id: number, by: string): Promise<Alias> {
  const aliasId = await withTransaction(db, async (client) => {
    const suggestion = await openSuggestion(client, id);
    const made = await addAlias(client, {
      testId: suggestion.test_id,
      canonicalId: suggestion.canonical_id,
      source: "suggestion",
      suggestionId: id,
      createdBy: by,
    });
    await suggestions.decideSuggestion(client, id, "confirmed", by);
    return made;
  });
  return toAlias((await repo.findAlias(db.pool, aliasId))!);
}

export async function dismissSuggestion(db: Db, id: number, by: string): Promise<AliasSuggestion> {
  await withTransaction(db, async (client) => {
    await openSuggestion(client, id);
    await suggestions.decideSuggestion(client, id, "dismissed", by);
  });
  return toSuggestion((await suggestions.findSuggestion(db.pool, id))!);
}
