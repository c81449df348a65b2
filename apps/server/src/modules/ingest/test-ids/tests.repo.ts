import type pg from "pg";
import { copyData } from "../encoding/copy.js";
import type { Family } from "./test-identity.js";

// The catalogue (`tests`) as test-id resolution reads and extends it, inside an upload's
// transaction. New tests go in with COPY (copyNewTests): the byte-level path of
// docs/architecture.md ("SQL only in repos").

/**
 * The catalogue's ids of a batch's identities ($2: one comma-separated text; base64url has no
 * comma). It goes as a binary parameter, whose text form is the bytes themselves, copied from
 * the batch's: as a text[] parameter, node-postgres quoted and escaped each identity into a new
 * string.
 *
 * One probe of tests_identity_excl (a hash index, migration 0225) per identity, whatever the
 * planner knows of the table: a LATERAL subquery with a LIMIT is never made a plain join. As a
 * join or `= ANY(...)`, the plan rested on the statistics, and a catalogue never analyzed (a
 * first upload, or one within autovacuum's minute of the last) got the family's rows read and
 * filtered by the array, a read that grew with every batch the upload registered: 0.7 s of
 * PostgreSQL's CPU for 100k new tests against 0.34 s probing (docs/performance.md, "Session
 * 34"). An array built at run time would also have been scanned per row (a first upload of 100k
 * new tests took 210 s once).
 */
export const TEST_LOOKUP_SQL = `SELECT i.identity, t.id, t.name IS NULL AS unnamed
  FROM unnest(string_to_array($2::text, ',')) AS i(identity)
  CROSS JOIN LATERAL (
    SELECT id, name FROM tests WHERE family = $1 AND identity = i.identity LIMIT 1
  ) t`;

export async function lookUpIdentities(
  client: pg.PoolClient,
  family: Family,
  identities: Uint8Array,
): Promise<{ identity: string; id: string; unnamed: boolean }[]> {
  const { rows } = await client.query<{ identity: string; id: string; unnamed: boolean }>(
    TEST_LOOKUP_SQL,
    [family, identities],
  );
  return rows;
}

/** What `tests` keeps of a test besides its id and family (suitePaths: text[] literals). */
export interface CatalogueTexts {
  titles: string[];
  files: (string | null)[];
  names: string[];
  suitePaths: string[];
}

/** Registers tests by their explicit ids; an id already registered is left as it is. */
export async function insertExplicitTests(
  client: pg.PoolClient,
  tests: { ids: number[]; family: Family } & CatalogueTexts,
): Promise<void> {
  await client.query(
    `INSERT INTO tests (id, family, title, file, name, suite_path)
     SELECT id, family, title, file, name, suite_path::text[]
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
       AS u(id, family, title, file, name, suite_path)
     ON CONFLICT (id) DO NOTHING`,
    [
      tests.ids,
      tests.ids.map(() => tests.family),
      tests.titles,
      tests.files,
      tests.names.map(storable),
      tests.suitePaths.map(storable),
    ],
  );
}

/**
 * Gives tests registered before migration 0221 (no name yet) the name and suite path of the
 * results found for them now, which their identity fixes: from here on their results may refer
 * to them. A test named meanwhile by another upload is left as it is (the same values).
 */
export async function nameTests(
  client: pg.PoolClient,
  tests: { ids: number[]; names: string[]; suitePaths: string[] },
): Promise<void> {
  await client.query(
    `UPDATE tests SET name = u.name, suite_path = u.suite_path::text[]
     FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, name, suite_path)
     WHERE tests.id = u.id AND tests.name IS NULL`,
    [tests.ids, tests.names.map(storable), tests.suitePaths.map(storable)],
  );
}

/** A text as COPY stores it (copy.ts): PostgreSQL's text holds no NUL, which becomes U+FFFD. */
const storable = (text: string) => text.replaceAll("\u0000", "\uFFFD");

/** The family's registration lock, held until the transaction ends (see TestIdResolver). */
export async function lockRegistration(client: pg.PoolClient, family: Family): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
    `assay.test-registration:${family}`,
  ]);
}

/** The columns of the catalogue rows BatchTests.catalogueRows writes. */
const CATALOGUE_COLUMNS = ["id", "family", "identity", "title", "file", "name", "suite_path"];

/** Writes new catalogue rows (CATALOGUE_COLUMNS), already COPY-encoded. */
export async function copyNewTests(client: pg.PoolClient, rows: Iterable<Buffer>): Promise<void> {
  await copyData(client, "tests", CATALOGUE_COLUMNS, rows);
}

/**
 * `count` ids from test_id_seq that no test has. A report may give any id (TC1396065), and the
 * sequence reaches it one day: that id is stepped over instead of the COPY of new tests failing
 * on tests_pkey. One statement unless an id was taken.
 *
 * The ids a statement draws are nearly always one unbroken range (another upload drawing at the
 * same moment breaks it): then one probe of tests_pkey for the whole range says whether all are
 * free, and the answer is the range's first id. Otherwise each id is probed (a subquery in the
 * WHERE clause, never made an anti-join: as NOT EXISTS, a catalogue without statistics was read
 * whole for each batch, 0.7 s of PostgreSQL's CPU for 100k new tests instead of 0.1 s) and the
 * free ones are answered as an array. Probing and answering each id took 0.2-0.7 s of
 * PostgreSQL's time per 100k new tests on a slow machine; drawing them alone ~0.07 s
 * (docs/performance.md, "Session 44").
 */
export async function freeTestIds(client: pg.PoolClient, count: number): Promise<Float64Array> {
  const ids = new Float64Array(count);
  for (let filled = 0; filled < count;) {
    // MATERIALIZED: each id drawn once, however often the statement reads them. The per-id
    // probes run only when `whole` is false (a CASE evaluates its subquery only when chosen).
    const { rows } = await client.query<{ first: string; n: number; whole: boolean; ids: string }>(
      `WITH drawn AS MATERIALIZED (
         SELECT nextval('test_id_seq') AS id FROM generate_series(1, $1)
       ), span AS (
         SELECT min(id) AS first, max(id) AS last, count(*) AS n FROM drawn
       ), checked AS (
         SELECT first, n, last - first + 1 = n
           AND NOT EXISTS (SELECT 1 FROM tests WHERE id BETWEEN span.first AND span.last) AS whole
         FROM span
       )
       SELECT first::text AS first, n::int AS n, whole,
         CASE WHEN NOT whole THEN (
           SELECT coalesce(array_agg(d.id ORDER BY d.id), '{}')::text FROM drawn d
           WHERE (SELECT true FROM tests t WHERE t.id = d.id) IS NULL
         ) END AS ids
       FROM checked`,
      [count - filled],
    );
    const { first, n, whole, ids: text } = rows[0]!;
    if (whole) {
      for (let k = 0; k < n; k++) ids[filled + k] = Number(first) + k;
      filled += n;
    } else if (text !== "{}") {
      // Every id drawn may have been taken: then the array is empty and the loop draws again.
      const free = integersOf(text, elementsOf(text));
      ids.set(free, filled);
      filled += free.length;
    }
  }
  return ids;
}

/** How many elements a non-empty array of integers read back as text holds ("{1,2}": two). */
function elementsOf(text: string): number {
  let commas = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x2c) commas++;
  return commas + 1;
}

/**
 * The integers of an array read back as text ("{1000001,1000002,...}"), `count` of them, parsed
 * as they are: split() and map() made two arrays per batch that lived through its COPY and were
 * promoted to V8's old generation.
 */
function integersOf(text: string, count: number): Float64Array {
  const values = new Float64Array(count);
  let k = 0;
  let value = 0;
  for (let i = 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) {
      value = value * 10 + (code - 0x30);
    } else {
      values[k++] = value;
      value = 0;
    }
  }
  if (k !== count) throw new Error(`expected ${count} ids from test_id_seq, read ${k}`);
  return values;
}
