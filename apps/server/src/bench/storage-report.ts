import type pg from "pg";

/*
 * Where the bytes of `results` go: each column's share of the heap (the sum of pg_column_size
 * over the rows, exact) and each index's size, scaled to 1M results, with the heap's own overhead
 * (tuple headers, alignment, free space: heap size minus the columns' bytes) and the TOAST table.
 * Works on a plain table and on a partitioned one (sizes summed over its partitions).
 */

export interface StorageLine {
  kind: "column" | "overhead" | "toast" | "index" | "total";
  name: string;
  bytes: number;
  perMillion: number;
}

async function relations(client: pg.PoolClient | pg.Pool, table: string): Promise<string[]> {
  const { rows } = await client.query<{ oid: string }>(
    `SELECT c.oid::regclass::text AS oid FROM pg_class c
     WHERE c.oid = $1::regclass AND c.relkind = 'r'
     UNION ALL
     SELECT i.inhrelid::regclass::text FROM pg_inherits i WHERE i.inhparent = $1::regclass`,
    [table],
  );
  return rows.map((r) => r.oid);
}

export async function storageReport(
  client: pg.PoolClient | pg.Pool,
  table = "results",
): Promise<StorageLine[]> {
  const parts = await relations(client, table);
  const { rows: columns } = await client.query<{ name: string }>(
    `SELECT attname AS name FROM pg_attribute
     WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    [table],
  );
  const sums = columns
    .map((c, i) => `coalesce(sum(pg_column_size(${JSON.stringify(c.name)})), 0)::bigint AS c${i}`)
    .join(", ");
  const { rows: sizes } = await client.query<Record<string, string>>(
    `SELECT count(*)::bigint AS n, ${sums} FROM ${table}`,
  );
  const n = Number(sizes[0]!.n);
  const scale = (bytes: number) => (n === 0 ? 0 : Math.round((bytes * 1_000_000) / n));
  const lines: StorageLine[] = columns.map((c, i) => {
    const bytes = Number(sizes[0]![`c${i}`]);
    return { kind: "column", name: c.name, bytes, perMillion: scale(bytes) };
  });
  const { rows: heap } = await client.query<{ heap: string; toast: string }>(
    `SELECT sum(pg_relation_size(p::regclass))::bigint AS heap,
            sum(pg_table_size(p::regclass) - pg_relation_size(p::regclass))::bigint AS toast
     FROM unnest($1::text[]) AS p`,
    [parts],
  );
  const columnBytes = lines.reduce((sum, l) => sum + l.bytes, 0);
  const heapBytes = Number(heap[0]!.heap);
  lines.push({
    kind: "overhead",
    name: "row headers, alignment, free space",
    bytes: heapBytes - columnBytes,
    perMillion: scale(heapBytes - columnBytes),
  });
  const toast = Number(heap[0]!.toast);
  lines.push({
    kind: "toast",
    name: "TOAST, free space map, visibility map",
    bytes: toast,
    perMillion: scale(toast),
  });
  // An index of a partitioned table is named on the parent; its partitions' indexes attach to it.
  const { rows: indexes } = await client.query<{ name: string; bytes: string }>(
    `SELECT coalesce(parent.relname, i.relname) AS name, sum(pg_relation_size(x.indexrelid))::bigint AS bytes
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     LEFT JOIN pg_inherits h ON h.inhrelid = x.indexrelid
     LEFT JOIN pg_class parent ON parent.oid = h.inhparent
     WHERE x.indrelid::regclass::text = ANY($1::text[])
     GROUP BY 1 ORDER BY 2 DESC`,
    [parts],
  );
  for (const i of indexes) {
    lines.push({
      kind: "index",
      name: i.name,
      bytes: Number(i.bytes),
      perMillion: scale(Number(i.bytes)),
    });
  }
  const total = heapBytes + toast + indexes.reduce((sum, i) => sum + Number(i.bytes), 0);
  lines.push({
    kind: "total",
    name: `${table}, ${n} rows`,
    bytes: total,
    perMillion: scale(total),
  });
  return lines;
}

/** The report as a Markdown table, bytes per 1M results in MB. */
export function storageTable(lines: StorageLine[]): string {
  const mb = (b: number) => (b / 1e6).toFixed(1);
  const rows = lines
    .filter((l) => l.kind !== "column" || l.bytes > 0)
    .map((l) => `| ${l.kind} | ${l.name} | ${mb(l.perMillion)} |`);
  return ["| kind | name | MB per 1M results |", "| --- | --- | --- |", ...rows].join("\n");
}
