import { randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashing with scrypt from node:crypto. OWASP's minimum is N=2^17, r=8, p=1; N=2^15 with
 * p=3 costs the same work in a quarter of the memory (32 MiB), which suits a small server. The
 * parameters are stored with each hash, so they can be raised later without breaking old ones.
 */

const PARAMS = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
// Node's default (32 MiB) is exactly what N=2^15, r=8 needs, and scrypt wants a little more.
const MAX_MEM = 128 * 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;

function derive(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFC"),
      salt,
      KEY_BYTES,
      { ...params, maxmem: MAX_MEM },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (salt and hash in base64url): everything needed to verify it. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMS);
  const { N, r, p } = PARAMS;
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

interface ParsedHash {
  params: ScryptOptions;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const [kind, n, r, p, salt, key] = stored.split("$");
  if (kind !== "scrypt" || !n || !r || !p || !salt || !key) return undefined;
  return {
    params: { N: Number(n), r: Number(r), p: Number(p) },
    salt: Buffer.from(salt, "base64url"),
    key: Buffer.from(key, "base64url"),
  };
}

// Made once, on first use: a hash to compare against when there is no account, so that an
// unknown email takes as long as a wrong password.
let decoy: Promise<string> | undefined;

/**
 * Whether `password` matches `stored`. Takes the same time whether or not there is a stored
 * hash (pass undefined for an unknown account), and compares in constant time.
 */
export async function passwordMatches(
  password: string,
  stored: string | null | undefined,
): Promise<boolean> {
  decoy ??= hashPassword(randomBytes(16).toString("hex"));
  const parsed = stored ? parseHash(stored) : undefined;
  const target = parsed ?? (parseHash(await decoy) as ParsedHash);
  const key = await derive(password, target.salt, target.params);
  const same = key.length === target.key.length && timingSafeEqual(key, target.key);
  return parsed !== undefined && same;
}

// No 0/O, 1/l/I: the password may be read off a terminal and typed.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A random password of 4 groups of 5 characters (about 99 bits), easy to copy and type. */
export function generatePassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 4; g += 1) {
    let group = "";
    for (let i = 0; i < 5; i += 1) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join("-");
}
