import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets kept in the database (session tokens, test-management passwords).
 * Layout: version byte, 12-byte IV, ciphertext, 16-byte tag. The associated data ties a value
 * to its row (a session, a user), so a ciphertext copied into another row does not open.
 */

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

function checkKey(key: Buffer): void {
  if (key.length !== 32) throw new Error("secret-box keys are 32 bytes (AES-256)");
}

/** Encrypts `plaintext` under `key`, bound to `context` (authenticated, not encrypted). */
export function seal(key: Buffer, plaintext: string, context: string): Buffer {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([Buffer.of(VERSION), iv, body, cipher.getAuthTag()]);
}

/**
 * Decrypts a value made by `seal` with the same key and context; undefined when the key, the
 * context or any byte differs (GCM authenticates all of them).
 */
export function open(key: Buffer, sealed: Buffer, context: string): string | undefined {
  checkKey(key);
  if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) return undefined;
  const iv = sealed.subarray(1, 1 + IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const body = sealed.subarray(1 + IV_BYTES, sealed.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
