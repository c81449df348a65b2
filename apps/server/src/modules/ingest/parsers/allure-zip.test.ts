import { finished } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { buildZip, type TestZipEntry } from "./allure-test-zip.js";
import { EntryLimiter, openZip, ZIP_LIMITS, type ZipLimits } from "./allure-zip.js";
import { parseAllure } from "./allure.js";
import { textFile, uploadOf } from "./test-files.js";
import { ReportError } from "./types.js";

const RESULT = JSON.stringify({ uuid: "r", name: "t", status: "passed" });
const zipFile = (entries: TestZipEntry[]) => textFile("upload.zip", buildZip(entries));
const open = (entries: TestZipEntry[], limits: Partial<ZipLimits> = {}) =>
  openZip(zipFile(entries), limits);

async function read(entries: TestZipEntry[], name: string, limits: Partial<ZipLimits> = {}) {
  const files = await open(entries, limits);
  const chunks: Buffer[] = [];
  for await (const chunk of files.get(name)!.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseZip(entries: TestZipEntry[]) {
  const zip = zipFile(entries);
  const names: string[] = [];
  for await (const result of parseAllure(zip, uploadOf(zip))) names.push(result.name);
  return names;
}

describe("openZip", () => {
  it("lists files by their path in the archive and inflates them on read", async () => {
    const entries = [
      { name: "allure-results/", data: "" },
      { name: "allure-results/r-result.json", data: RESULT },
      { name: "allure-results/a.txt", data: "stored", method: 0 },
    ];
    const files = await open(entries);
    expect(files.all().map((f) => [f.name, f.size])).toEqual([
      ["allure-results/r-result.json", RESULT.length],
      ["allure-results/a.txt", 6],
    ]);
    expect((await read(entries, "allure-results/r-result.json")).toString()).toBe(RESULT);
    expect((await read(entries, "allure-results/a.txt")).toString()).toBe("stored");
  });

  it.each([
    ["../../tmp/pwn", 'zip entry "../../tmp/pwn" points outside the archive\'s folder (..)'],
    ["..\\..\\x", 'zip entry "../../x" points outside the archive\'s folder (..)'],
    ["a/../../x", 'zip entry "a/../../x" points outside the archive\'s folder (..)'],
    [
      "%2e%2e/x-result.json",
      'zip entry "%2e%2e/x-result.json" points outside the archive\'s folder (..)',
    ],
    ["/etc/cron.d/x", 'zip entry "/etc/cron.d/x" is an absolute path'],
    ["C:/x", 'zip entry "C:/x" is an absolute path'],
    ["a\u0000.png", 'zip entry "a\\u0000.png" has a NUL character in its name'],
  ])("refuses the entry name %j (Z1)", async (name, message) => {
    await expect(open([{ name, data: "x" }])).rejects.toThrow(`upload.zip: ${message}`);
  });

  it("refuses symlinks (Z2) and encrypted or LZMA entries (Z8)", async () => {
    await expect(open([{ name: "link", data: "/etc/passwd", mode: 0o120777 }])).rejects.toThrow(
      'upload.zip: zip entry "link" is a symbolic link; links are refused',
    );
    await expect(open([{ name: "a", data: "x", flags: 0x1 }])).rejects.toThrow(
      'upload.zip: zip entry "a" is encrypted; upload an unencrypted zip',
    );
    await expect(open([{ name: "a", data: "x", method: 14 }])).rejects.toThrow(
      'upload.zip: zip entry "a" uses compression method 14; only stored and deflated entries are read',
    );
  });

  it("refuses too many entries and too long names (Z6)", async () => {
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `f${i}`, data: "x" }));
    await expect(open(six, { maxEntries: 5 })).rejects.toThrow(
      "upload.zip: the zip has 6 entries; at most 5 are accepted: split it into several uploads",
    );
    expect(ZIP_LIMITS.maxEntries).toBe(100_000);
    // A 10k-test results folder has ~15,000 files: more than the former limit of 10,000.
    const folder = Array.from({ length: 10_001 }, (_, i) => ({ name: `${i}-a.txt`, method: 0 }));
    expect((await open([{ name: "r-result.json", data: RESULT }, ...folder])).all()).toHaveLength(
      10_002,
    );
    await expect(open([{ name: "n".repeat(2000), data: "x" }])).rejects.toThrow(
      `has a name longer than ${ZIP_LIMITS.maxNameLength} characters`,
    );
  });

  it("refuses duplicate names, also when they differ only in case or normalization (Z7)", async () => {
    await expect(
      open([
        { name: "A-result.json", data: RESULT },
        { name: "a-result.json", data: RESULT },
      ]),
    ).rejects.toThrow('upload.zip: zip entry "a-result.json" appears twice');
    await expect(
      open([
        { name: "caf\u00e9.png", data: "1" },
        { name: "cafe\u0301.png", data: "2" },
      ]),
    ).rejects.toThrow("appears twice (names are compared ignoring case)");
  });

  it("refuses a bomb by its declared size and ratio before inflating (Z4)", async () => {
    const zeros = Buffer.alloc(2 * 1024 * 1024);
    await expect(open([{ name: "bomb.json", data: zeros }])).rejects.toThrow(
      'upload.zip: zip entry "bomb.json" expands more than 100 times (a zip bomb?)',
    );
    await expect(open([{ name: "big.png", data: zeros }], { maxEntryBytes: 1024 })).rejects.toThrow(
      'upload.zip: zip entry "big.png" is larger than 1024 bytes uncompressed',
    );
    const parts = ["a", "b", "c"].map((name) => ({ name, data: Buffer.alloc(400, name) }));
    await expect(open(parts, { maxTotalBytes: 1000 })).rejects.toThrow(
      "upload.zip: the zip's files add up to more than 1000 bytes uncompressed",
    );
  });

  it("refuses entries that share compressed data (overlapping entries, Z4)", async () => {
    await expect(
      open([
        { name: "a", data: "payload" },
        { name: "b", data: "payload", sameDataAs: 0 },
      ]),
    ).rejects.toThrow("upload.zip: zip entries overlap each other (a zip bomb?); refused");
  });

  it("stops inflating an entry whose header lies about its size, while streaming (Z5)", async () => {
    const liar = {
      name: "r-result.json",
      data: Buffer.alloc(5 * 1024 * 1024, " "),
      declaredSize: 100,
    };
    await expect(read([liar], "r-result.json")).rejects.toThrow(
      'upload.zip: zip entry "r-result.json" inflates to more than the 100 bytes its header declares (a zip bomb?)',
    );
    await expect(parseZip([liar])).rejects.toThrow(ReportError);
    const short = { name: "s.txt", data: "abc", declaredSize: 10 };
    await expect(read([short], "s.txt")).rejects.toThrow(
      'upload.zip: zip entry "s.txt" is shorter than its header says (truncated)',
    );
  });

  it("checks the limits again while inflating, whatever the header declared", async () => {
    const lim = {
      ...ZIP_LIMITS,
      maxEntryBytes: 1000,
      maxRatio: 10,
      ratioFloorBytes: 100,
      maxTotalBytes: 1500,
    };
    const entry = (name: string, compressedSize: number, uncompressedSize = 1e9) => ({
      name,
      uncompressedSize,
      compressedSize,
      inflated: 0,
    });
    const pump = async (limiter: EntryLimiter, bytes: number) => {
      limiter.resume();
      limiter.end(Buffer.alloc(bytes));
      await finished(limiter);
    };
    await expect(
      pump(new EntryLimiter("z.zip", entry("big", 1e6), lim, { inflated: 0 }), 1001),
    ).rejects.toThrow('z.zip: zip entry "big" is larger than 1000 bytes uncompressed');
    await expect(
      pump(new EntryLimiter("z.zip", entry("dense", 10), lim, { inflated: 0 }), 101),
    ).rejects.toThrow('z.zip: zip entry "dense" expands more than 10 times (a zip bomb?)');
    const budget = { inflated: 0 };
    const first = entry("first", 1e6, 900);
    await pump(new EntryLimiter("z.zip", first, lim, budget), 900);
    // Reading the same entry again does not count twice; a second entry does.
    await pump(new EntryLimiter("z.zip", first, lim, budget), 900);
    expect(budget.inflated).toBe(900);
    await expect(
      pump(new EntryLimiter("z.zip", entry("second", 1e6), lim, budget), 700),
    ).rejects.toThrow('z.zip: zip entry "second" takes the zip past 1500 bytes uncompressed');
  });

  it("refuses files that are not zips, truncated zips and zips over the size limit (Z8)", async () => {
    await expect(openZip(textFile("upload.zip", "not a zip at all, just text"))).rejects.toThrow(
      "upload.zip: not a readable zip archive (End of central directory record signature not found. Either not a zip file, or file is truncated.)",
    );
    const whole = buildZip([{ name: "r-result.json", data: RESULT }]);
    await expect(
      openZip(textFile("upload.zip", whole.subarray(0, whole.length - 30))),
    ).rejects.toThrow("upload.zip: not a readable zip archive");
    await expect(openZip(textFile("upload.zip", whole), { maxZipBytes: 50 })).rejects.toThrow(
      "upload.zip: the zip is larger than 50 bytes; split the upload",
    );
  });

  it("refuses an entry whose deflated data is corrupt when it is read", async () => {
    const zip = buildZip([{ name: "r-result.json", data: "this is not deflate data!", method: 0 }]);
    // Claim "deflated" for data that was stored: the inflater fails on it.
    zip.writeUInt16LE(8, 8);
    zip.writeUInt16LE(8, zip.indexOf(Buffer.from("PK\u0001\u0002", "latin1")) + 10);
    const files = await openZip(textFile("upload.zip", zip));
    const read = async () => {
      for await (const chunk of files.get("r-result.json")!.open()) void chunk;
    };
    await expect(read()).rejects.toThrow(
      /^upload\.zip: zip entry "r-result\.json" cannot be read: the zip is corrupt \(.+\)$/,
    );
  });

  it("refuses a traversal entry even when the rest of the zip is a valid results folder", async () => {
    await expect(
      parseZip([
        { name: "r-result.json", data: RESULT },
        { name: "../r2-result.json", data: RESULT },
      ]),
    ).rejects.toThrow('upload.zip: zip entry "../r2-result.json" points outside');
    expect(await parseZip([{ name: "r-result.json", data: RESULT }])).toEqual(["t"]);
    await expect(parseZip([{ name: "c-container.json", data: '{"uuid":"c"}' }])).rejects.toThrow(
      "upload.zip: no *-result.json file found; expected an Allure results folder",
    );
  });
});
