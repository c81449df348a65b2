import type { Kysely } from "kysely";
import type { Adapter, AdapterConstructor, AdapterPayload } from "oidc-provider";
import type { Database } from "../../db/schema.js";
import * as repo from "./oidc-models.repo.js";

/**
 * oidc-provider's storage in PostgreSQL instead of its in-memory development adapter: sessions,
 * interactions, grants, codes and tokens survive a restart and are shared by every server on
 * the database, so a code issued by one server can be redeemed at another.
 */
export function postgresAdapter(db: Kysely<Database>): AdapterConstructor {
  function withConsumed(row: repo.StoredModel | undefined): AdapterPayload | undefined {
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    // The library detects reuse of codes and refresh tokens by this field.
    return row.consumed_at
      ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) }
      : payload;
  }

  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined) {
      await repo.upsertModel(db, {
        model: this.model,
        id,
        payload,
        expiresInSeconds: expiresIn,
        uid: payload.uid,
        grantId: payload.grantId,
        userCode: payload.userCode,
      });
    }

    async find(id: string) {
      return withConsumed(await repo.findModel(db, this.model, id));
    }

    async findByUid(uid: string) {
      return withConsumed(await repo.findModelByUid(db, this.model, uid));
    }

    async findByUserCode(userCode: string) {
      return withConsumed(await repo.findModelByUserCode(db, this.model, userCode));
    }

    async consume(id: string) {
      await repo.consumeModel(db, this.model, id);
    }

    async destroy(id: string) {
      await repo.destroyModel(db, this.model, id);
    }

    async revokeByGrantId(grantId: string) {
      await repo.destroyByGrantId(db, grantId);
    }
  };
}
