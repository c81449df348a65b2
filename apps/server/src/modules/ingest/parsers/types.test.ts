import { describe, expect, it } from "vitest";
import { textFile } from "./test-files.js";
import { readBytes, readHead, readInOrder, type ReportFile } from "./types.js";

const files = (sizes: number[]) => sizes.map((size, i) => textFile(`f${i}`, "x".repeat(size)));

/**
 * Reads that finish when the test says (or, once opened, on the next turn of the event loop),
 * recording how many were in flight at most.
 */
function gate() {
  const waiting = new Map<string, () => void>();
  let inFlight = 0;
  let most = 0;
  let opened = false;
  const release = () => {
    for (const [name, done] of [...waiting]) {
      waiting.delete(name);
      done();
    }
  };
  const read = (file: ReportFile) =>
    new Promise<string>((resolve) => {
      most = Math.max(most, ++inFlight);
      waiting.set(file.name, () => {
        inFlight--;
        resolve(file.name);
      });
      if (opened) setImmediate(release);
    });
  const open = () => {
    opened = true;
    release();
  };
  return { read, release, open, most: () => most, started: () => [...waiting.keys()] };
}

async function drain<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("readInOrder", () => {
  it("yields in the files' order however the reads finish", async () => {
    const delays = [30, 0, 10, 0, 20];
    const read = (file: ReportFile, i: number) =>
      new Promise<string>((resolve) => setTimeout(() => resolve(file.name), delays[i]));
    expect(await drain(readInOrder(files([1, 1, 1, 1, 1]), read))).toEqual([
      "f0",
      "f1",
      "f2",
      "f3",
      "f4",
    ]);
  });

  it("keeps at most the given number of files, and of bytes, in flight", async () => {
    const byCount = gate();
    const out = readInOrder(files([1, 1, 1, 1, 1, 1, 1]), byCount.read, { files: 3, bytes: 100 });
    const first = out.next();
    expect(byCount.started()).toEqual(["f0", "f1", "f2"]);
    byCount.open();
    await first;
    expect(await drain(out)).toHaveLength(6);
    expect(byCount.most()).toBe(3);

    // 60 + 50 > 100: the second waits for the first; a file over the limit is still read alone.
    const bySize = gate();
    const sized = readInOrder(files([60, 50, 30, 200, 10]), bySize.read, { files: 10, bytes: 100 });
    const next = sized.next();
    expect(bySize.started()).toEqual(["f0"]);
    bySize.release();
    await next;
    expect(bySize.started()).toEqual(["f1", "f2"]);
    bySize.open();
    expect(await drain(sized)).toEqual(["f1", "f2", "f3", "f4"]);
    expect(bySize.most()).toBe(2);
  });

  it("throws the first failure in order, and leaves no rejection unhandled", async () => {
    const read = async (file: ReportFile, i: number) => {
      if (i === 3) throw new Error(`bad ${file.name}`);
      if (i === 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error(`bad ${file.name}`);
      }
      return file.name;
    };
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const name of readInOrder(files([1, 1, 1, 1, 1]), read)) seen.push(name);
      })(),
    ).rejects.toThrow("bad f1");
    expect(seen).toEqual(["f0"]);
  });
});

describe("readBytes and readHead", () => {
  it("take the bytes of a file held in memory without opening it", async () => {
    const content = Buffer.from("held in memory");
    const file: ReportFile = {
      name: "m.json",
      size: content.length,
      content,
      open: () => {
        throw new Error("opened");
      },
    };
    expect(await readBytes(file)).toBe(content);
    expect((await readHead(file, 4)).toString()).toBe("held");
  });

  it("stream any other file, the head only as far as needed", async () => {
    const file = textFile("s.json", "streamed");
    expect((await readBytes(file)).toString()).toBe("streamed");
    expect((await readHead(file, 3)).toString()).toBe("str");
    expect((await readHead(file, 100)).toString()).toBe("streamed");
  });
});
