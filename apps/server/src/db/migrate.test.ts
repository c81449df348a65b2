import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { createDb } from "./pool.js";
import { listMigrations, migrate, migrationStatus } from "./migrate.js";

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

describe("migrate", () => {
  it("applies every migration once, in order, and then nothing", async () => {
    database = await createTestDatabase({ migrated: false });
    const all = listMigrations().map((m) => m.version);
    expect(await migrate(database.db.pool)).toEqual(all);
    expect(await migrate(database.db.pool)).toEqual([]);
    expect(await migrationStatus(database.db.pool)).toEqual({
      applied: all.length,
      complete: true,
    });
  });

  it("lets two servers starting at once apply each migration exactly once", async () => {
    database = await createTestDatabase({ migrated: false });
    const second = createDb(database.url, 2);
    try {
      const [a, b] = await Promise.all([migrate(database.db.pool), migrate(second.pool)]);
      expect([...a, ...b].sort((x, y) => x - y)).toEqual(listMigrations().map((m) => m.version));
      const { rows } = await database.db.pool.query(
        "SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version HAVING count(*) > 1",
      );
      expect(rows).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it("refuses to start when an applied migration was edited afterwards", async () => {
    database = await createTestDatabase({ migrated: false });
    const migrations = listMigrations();
    await migrate(database.db.pool, migrations);
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, checksum: "edited" } : m));
    await expect(migrate(database.db.pool, edited)).rejects.toThrow(
      /changed after it was applied; add a new migration instead/,
    );
  });

  it("rolls back a failing migration and records nothing of it", async () => {
    database = await createTestDatabase({ migrated: false });
    const broken = {
      version: 9999,
      name: "broken",
      sql: "CREATE TABLE t (x int); SELECT nope;",
      checksum: "x",
    };
    await expect(migrate(database.db.pool, [...listMigrations(), broken])).rejects.toThrow(
      /migration 9999_broken failed/,
    );
    const { rows } = await database.db.pool.query(
      "SELECT to_regclass('t') AS t, (SELECT count(*)::int FROM schema_migrations WHERE version = 9999) AS n",
    );
    expect(rows[0]).toEqual({ t: null, n: 0 });
  });

  it("0007 moves each test's identity from test_keys onto its tests row", async () => {
    database = await createTestDatabase({ migrated: false });
    const migrations = listMigrations();
    await migrate(
      database.db.pool,
      migrations.filter((m) => m.version < 7),
    );
    await database.db.pool.query(
      `INSERT INTO tests (id, family, title) VALUES (1000000, 'frontend', 'a'), (1000001, 'backend', 'b'), (42, 'frontend', 'TC42');
       INSERT INTO test_keys (family, identity, test_id) VALUES ('frontend', 'id-a', 1000000), ('backend', 'id-b', 1000001)`,
    );
    expect(
      await migrate(
        database.db.pool,
        migrations.filter((m) => m.version <= 7),
      ),
    ).toEqual([7]);
    const { rows } = await database.db.pool.query(
      "SELECT id::int, family, identity FROM tests ORDER BY id",
    );
    expect(rows).toEqual([
      { id: 42, family: "frontend", identity: null },
      { id: 1000000, family: "frontend", identity: "id-a" },
      { id: 1000001, family: "backend", identity: "id-b" },
    ]);
    const { rows: keys } = await database.db.pool.query("SELECT to_regclass('test_keys') AS t");
    expect(keys[0]).toEqual({ t: null });
  });
});
