import { crc32, deflateRawSync } from "node:zlib";

/** One entry of a hand-built zip; every override exists to forge one kind of hostile archive. */
export interface TestZipEntry {
  name: string;
  data?: string | Buffer;
  /** 0 stored, 8 deflated (default), anything else to claim an unsupported method. */
  method?: number;
  /** The uncompressed size the headers claim, when it should lie. */
  declaredSize?: number;
  /** Unix mode put in the external attributes, e.g. 0o120777 for a symlink. */
  mode?: number;
  /** Extra general-purpose flags, e.g. 0x1 (encrypted). */
  flags?: number;
  /** Point the central directory at an earlier entry's local header and data (overlap bomb). */
  sameDataAs?: number;
}

const VERSION = 20;
const MADE_BY_UNIX = (3 << 8) | VERSION;
const FLAG_UTF8 = 0x800;

/**
 * A minimal zip writer for tests (local headers, central directory, end record; no zip64), so
 * that archives real tools refuse to make can be made on purpose.
 */
export function buildZip(entries: readonly TestZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const raw = Buffer.from(entry.data ?? "");
    const method = entry.method ?? 8;
    const body = method === 8 ? deflateRawSync(raw) : raw;
    const fields = {
      flags: FLAG_UTF8 | (entry.flags ?? 0),
      method,
      crc: crc32(raw),
      compressed: body.length,
      size: entry.declaredSize ?? raw.length,
    };
    let localOffset = entry.sameDataAs !== undefined ? offsets[entry.sameDataAs] : undefined;
    if (localOffset === undefined) {
      localOffset = offset;
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(VERSION, 4);
      local.writeUInt16LE(fields.flags, 6);
      local.writeUInt16LE(fields.method, 8);
      local.writeUInt32LE(fields.crc, 14);
      local.writeUInt32LE(fields.compressed, 18);
      local.writeUInt32LE(fields.size, 22);
      local.writeUInt16LE(name.length, 26);
      parts.push(local, name, body);
      offset += local.length + name.length + body.length;
    }
    offsets.push(localOffset);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(MADE_BY_UNIX, 4);
    header.writeUInt16LE(VERSION, 6);
    header.writeUInt16LE(fields.flags, 8);
    header.writeUInt16LE(fields.method, 10);
    header.writeUInt32LE(fields.crc, 16);
    header.writeUInt32LE(fields.compressed, 20);
    header.writeUInt32LE(fields.size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    header.writeUInt32LE(localOffset, 42);
    central.push(header, name);
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
