import type { DefaultTimestamp, Timestamp } from "./column-types.js";

/** Sign-in's tables (sessions, data-harmonization hand-over codes): split from schema.ts for size. */

/** A browser session (migration 0005); found by the SHA-256 of the cookie's random id. */
export interface SessionsTable {
  id_hash: Buffer;
  user_id: number;
  /** AES-256-GCM of the provider's tokens (JSON), bound to id_hash. */
  tokens_encrypted: Buffer;
  access_expires_at: Timestamp | null;
  refreshing_until: Timestamp | null;
  csrf_token: string;
  created_at: DefaultTimestamp;
  last_seen_at: DefaultTimestamp;
  expires_at: Timestamp;
}

/** A one-time sign-in code for a data-harmonization host (migration 0135, modules/auth/handoff). */
export interface SignInHandoffsTable {
  code_hash: Buffer;
  host: string;
  browser_hash: Buffer;
  user_id: number;
  tokens_encrypted: Buffer | null;
  return_to: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface SignInTables {
  sessions: SessionsTable;
  sign_in_handoffs: SignInHandoffsTable;
}
