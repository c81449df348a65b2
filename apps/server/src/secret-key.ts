import { hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { decodeSecretKey, StartRefused, type Config } from "./config.js";

/**
 * The one secret everything else is derived from: cookie signing keys, the embedded provider's
 * client secret, the key that encrypts its signing keys, session and profile encryption.
 * ASSAY_SECRET_KEY when set; otherwise an embedded install generates one once and keeps it in
 * <ASSAY_DATA_DIR>/secret-key (mode 600), next to the database it protects.
 */

export const SECRET_KEY_FILE = "secret-key";

function readKeyFile(file: string): Buffer {
  const key = decodeSecretKey(readFileSync(file, "utf8"));
  if (!key) {
    throw new StartRefused(
      `${file} does not hold a secret key (32+ bytes in base64 or hex). Restore it from a backup, or set ASSAY_SECRET_KEY.`,
    );
  }
  return key;
}

/**
 * The installation's secret key. Servers that share a database must share the key too
 * (ASSAY_SECRET_KEY): one holding another key cannot open the stored signing keys and stops at
 * start, saying so.
 */
export function loadSecretKey(config: Config): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  try {
    return readKeyFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });
  try {
    // "wx": when two processes start at once, the second reads the first one's key.
    writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  // The umask may have narrowed or the file may predate us; 600 is what protects it.
  chmodSync(file, 0o600);
  return readKeyFile(file);
}

/**
 * A 32-byte key for one purpose (HKDF-SHA256 with the purpose as info), so that a key leaked
 * from one use, such as cookie signing, reveals nothing about the others.
 */
export function deriveKey(secret: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), purpose, 32));
}
