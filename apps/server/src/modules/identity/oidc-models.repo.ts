import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface StoredModel {
  payload: Record<string, unknown>;
  consumed_at: Date | null;
}

// Expiry uses PostgreSQL's clock, so that servers with different clocks agree on it.
const notExpired = sql<boolean>`(expires_at IS NULL OR expires_at > now())`;

export async function upsertModel(
  db: Kysely<Database>,
  row: {
    model: string;
    id: string;
    payload: Record<string, unknown>;
    expiresInSeconds: number | undefined;
    uid: string | undefined;
    grantId: string | undefined;
    userCode: string | undefined;
  },
): Promise<void> {
  const expiresAt =
    row.expiresInSeconds === undefined
      ? null
      : sql<Date>`now() + make_interval(secs => ${row.expiresInSeconds})`;
  const values = {
    payload: JSON.stringify(row.payload),
    expires_at: expiresAt,
    uid: row.uid ?? null,
    grant_id: row.grantId ?? null,
    user_code: row.userCode ?? null,
  };
  await db
    .insertInto("oidc_models")
    .values({ model: row.model, id: row.id, ...values })
    .onConflict((oc) => oc.columns(["model", "id"]).doUpdateSet(values))
    .execute();
}

async function findWhere(
  db: Kysely<Database>,
  model: string,
  column: "id" | "uid" | "user_code",
  value: string,
): Promise<StoredModel | undefined> {
  return db
    .selectFrom("oidc_models")
    .select(["payload", "consumed_at"])
    .where("model", "=", model)
    .where(column, "=", value)
    .where(notExpired)
    .executeTakeFirst();
}

export const findModel = (db: Kysely<Database>, model: string, id: string) =>
  findWhere(db, model, "id", id);

export const findModelByUid = (db: Kysely<Database>, model: string, uid: string) =>
  findWhere(db, model, "uid", uid);

export const findModelByUserCode = (db: Kysely<Database>, model: string, userCode: string) =>
  findWhere(db, model, "user_code", userCode);

export async function consumeModel(db: Kysely<Database>, model: string, id: string) {
  await db
    .updateTable("oidc_models")
    .set({ consumed_at: sql<Date>`now()` })
    .where("model", "=", model)
    .where("id", "=", id)
    .execute();
}

export async function destroyModel(db: Kysely<Database>, model: string, id: string) {
  await db.deleteFrom("oidc_models").where("model", "=", model).where("id", "=", id).execute();
}

/** Everything issued under one grant: codes, access and refresh tokens. */
export async function destroyByGrantId(db: Kysely<Database>, grantId: string): Promise<void> {
  await db.deleteFrom("oidc_models").where("grant_id", "=", grantId).execute();
}

/** Sessions, grants and tokens of one account: they stop working at once. */
export async function destroyByAccountId(db: Kysely<Database>, accountId: string): Promise<number> {
  const result = await db
    .deleteFrom("oidc_models")
    .where(sql<boolean>`payload ? 'accountId'`)
    .where(sql<string>`payload ->> 'accountId'`, "=", accountId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpired(db: Kysely<Database>): Promise<number> {
  const result = await db
    .deleteFrom("oidc_models")
    .where("expires_at", "<", sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
