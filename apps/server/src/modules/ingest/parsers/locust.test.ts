import { Readable } from "node:stream";
import { LoadEndpointStatSchema } from "@assay/core";
import { describe, expect, it } from "vitest";
import { detectLocust, MAX_LOCUST_ROWS, parseLocust } from "./locust.js";
import { fixtureFile, fixtureText, textFile, uploadOf } from "./test-files.js";
import { ReportError } from "./types.js";

const fixture = (name: string) => fixtureFile("locust", name);
const STATS = fixtureText("locust", "run_stats.csv");
const [HEADER = "", ...ROWS] = STATS.split("\r\n").filter((l) => l !== "");
const EXPECTED = "Locust's stats CSV (PREFIX_stats.csv, written by `locust --csv PREFIX`)";

/** The real stats CSV with some lines changed, parsed as the only file of an upload. */
const parseStats = (text: string, name = "run_stats.csv") =>
  parseLocust(uploadOf(textFile(name, text)));
const csv = (...lines: string[]) => lines.map((l) => `${l}\r\n`).join("");

describe("parseLocust on a real run (locust 2.12.1, 4 endpoints, 2 of them failing)", () => {
  const upload = uploadOf(
    fixture("run_stats.csv"),
    fixture("run_failures.csv"),
    fixture("run_exceptions.csv"),
    fixture("run_stats_history.csv"),
    fixture("report.html"),
  );

  it("reads one row per endpoint and the Aggregated row, exactly as Locust wrote them", async () => {
    const { stats } = await parseLocust(upload);
    expect(stats).toEqual([
      {
        method: "GET",
        name: "/",
        requests: 31,
        failures: 0,
        median_ms: 4,
        p95_ms: 100,
        p99_ms: 140,
        average_ms: 12.716197161243175,
        min_ms: 2.2544509999988804,
        max_ms: 144.69214999985525,
        requests_per_s: 3.500699556078185,
        failures_per_s: 0,
        aggregated: false,
      },
      {
        method: "GET",
        name: "/hello.txt",
        requests: 25,
        failures: 0,
        median_ms: 5,
        p95_ms: 120,
        p99_ms: 120,
        average_ms: 23.17311112002244,
        min_ms: 2.6359970001976762,
        max_ms: 123.85384999993221,
        requests_per_s: 2.8231448032888586,
        failures_per_s: 0,
        aggregated: false,
      },
      {
        method: "GET",
        name: "/missing (404)",
        requests: 18,
        failures: 18,
        median_ms: 5,
        p95_ms: 95,
        p99_ms: 95,
        average_ms: 13.155404888885236,
        min_ms: 2.149543000086851,
        max_ms: 95.37871399993492,
        requests_per_s: 2.032664258367978,
        failures_per_s: 2.032664258367978,
        aggregated: false,
      },
      {
        method: "POST",
        name: "/submit",
        requests: 16,
        failures: 16,
        median_ms: 4,
        p95_ms: 95,
        p99_ms: 95,
        average_ms: 14.179189312471863,
        min_ms: 2.168568000115556,
        max_ms: 94.83576000002358,
        requests_per_s: 1.8068126741048696,
        failures_per_s: 1.8068126741048696,
        aggregated: false,
      },
      {
        method: "",
        name: "Aggregated",
        requests: 90,
        failures: 34,
        median_ms: 5,
        p95_ms: 100,
        p99_ms: 140,
        average_ms: 15.968824522206482,
        min_ms: 2.149543000086851,
        max_ms: 144.69214999985525,
        requests_per_s: 10.16332129183989,
        failures_per_s: 3.8394769324728477,
        aggregated: true,
      },
    ]);
    for (const stat of stats) expect(LoadEndpointStatSchema.parse(stat)).toEqual(stat);
  });

  it("passes the uploaded HTML report on and ignores the other CSVs", async () => {
    const report = await parseLocust(upload);
    expect(report.htmlReport?.name).toBe("report.html");
    expect(report.htmlReport).toBe(upload.get("report.html"));
  });

  it("has no HTML report when none was uploaded", async () => {
    const report = await parseLocust(
      uploadOf(fixture("run_failures.csv"), fixture("run_stats.csv")),
    );
    expect(report.htmlReport).toBeUndefined();
    expect(report.stats).toHaveLength(5);
  });

  it("finds the stats CSV by its header when it was renamed", async () => {
    const { stats } = await parseLocust(uploadOf(textFile("load.csv", STATS)));
    expect(stats.map((s) => `${s.method} ${s.name}`)).toEqual([
      "GET /",
      "GET /hello.txt",
      "GET /missing (404)",
      "POST /submit",
      " Aggregated",
    ]);
  });
});

describe("parseLocust on N/A values", () => {
  it("turns the N/A percentiles of a run without requests into null (real idle run)", async () => {
    const { stats } = await parseLocust(uploadOf(fixture("idle_stats.csv")));
    expect(stats).toEqual([
      {
        method: "",
        name: "Aggregated",
        requests: 0,
        failures: 0,
        median_ms: null,
        p95_ms: null,
        p99_ms: null,
        average_ms: null,
        min_ms: null,
        max_ms: null,
        requests_per_s: 0,
        failures_per_s: 0,
        aggregated: true,
      },
    ]);
  });

  it("turns N/A into null in any time column, keeping the other values", async () => {
    const row = ROWS[0]!.split(",");
    row[15] = "N/A"; // 90%
    row[16] = "N/A"; // 95%
    row[5] = "N/A"; // Average Response Time
    const { stats } = await parseStats(csv(HEADER, row.join(","), ROWS[4]!));
    expect(stats[0]).toMatchObject({ requests: 31, p95_ms: null, p99_ms: 140, average_ms: null });
  });

  it("leaves p95 and p99 null when the run reported other percentiles", async () => {
    const text = csv(
      "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,90%",
      "GET,/,3,0,4,4.5,3,6,10.0,1.5,0.0,4,6",
      ",Aggregated,3,0,4,4.5,3,6,10.0,1.5,0.0,4,6",
    );
    const { stats } = await parseStats(text);
    expect(stats[0]).toMatchObject({ median_ms: 4, p95_ms: null, p99_ms: null, max_ms: 6 });
  });

  it("reads a fully quoted file with a byte order mark (older Locust, spreadsheet exports)", async () => {
    const quote = (line: string) =>
      line
        .split(",")
        .map((f) => `"${f}"`)
        .join(",");
    const { stats } = await parseStats(`\uFEFF${csv(...[HEADER, ...ROWS].map(quote))}`);
    expect(stats).toHaveLength(5);
    expect(stats[4]).toMatchObject({ method: "", name: "Aggregated", requests: 90, p99_ms: 140 });
  });
});

describe("parseLocust on bad input", () => {
  it("names the missing column", async () => {
    const drop = (line: string) => line.split(",").toSpliced(3, 1).join(",");
    await expect(parseStats(csv(...[HEADER, ...ROWS].map(drop)))).rejects.toThrow(
      `run_stats.csv (line 1): missing column "Failure Count" in the header of ${EXPECTED}`,
    );
  });

  it("refuses a column that appears twice", async () => {
    const text = csv(`${HEADER},Requests/s`, ...ROWS.map((r) => `${r},1`));
    await expect(parseStats(text)).rejects.toThrow(
      'run_stats.csv (line 1, column 23): column "Requests/s" appears twice in the header',
    );
  });

  it("names the line and column of a value that is not a number", async () => {
    const rows = [...ROWS];
    rows[1] = rows[1]!.replace("GET,/hello.txt,25,", "GET,/hello.txt,lots,");
    await expect(parseStats(csv(HEADER, ...rows))).rejects.toThrow(
      'run_stats.csv (line 3, column 3): "Request Count" must be a whole number',
    );
  });

  it.each([
    ["12.5", 4, "Failure Count", "a whole number"],
    ["-1", 5, "Median Response Time", 'a number of milliseconds or "N/A"'],
    ["nan", 6, "Average Response Time", 'a number of milliseconds or "N/A"'],
    ["", 17, "95%", 'a number of milliseconds or "N/A"'],
    ["inf", 10, "Requests/s", "a number"],
    ["N/A", 11, "Failures/s", "a number"],
    ["1e999", 11, "Failures/s", "a number"],
  ])("refuses %j in column %i (%s)", async (value, column, name, expected) => {
    const row = ROWS[0]!.split(",");
    row[column - 1] = value;
    await expect(parseStats(csv(HEADER, row.join(","), ROWS[4]!))).rejects.toThrow(
      `run_stats.csv (line 2, column ${column}): "${name}" must be ${expected}`,
    );
  });

  it("refuses a file without the Aggregated row (cut short)", async () => {
    await expect(parseStats(csv(HEADER, ...ROWS.slice(0, 4)))).rejects.toThrow(
      'run_stats.csv: no Aggregated row (empty Type, Name "Aggregated"); Locust ends its stats CSV with one, so the file may be cut short',
    );
  });

  it("refuses a header without rows", async () => {
    await expect(parseStats(csv(HEADER))).rejects.toThrow(/run_stats.csv: no Aggregated row/);
  });

  it("refuses a second Aggregated row", async () => {
    await expect(parseStats(csv(HEADER, ...ROWS, ROWS[4]!))).rejects.toThrow(
      "run_stats.csv (line 7): a second Aggregated row (the first is on line 6); Locust writes one",
    );
  });

  it("refuses an empty file, found by name or as the only file", async () => {
    await expect(parseStats("")).rejects.toThrow(
      `run_stats.csv: the file is empty; expected ${EXPECTED}`,
    );
    await expect(parseStats("\r\n\r\n", "upload.csv")).rejects.toThrow(
      `upload.csv: the file is empty; expected ${EXPECTED}`,
    );
    await expect(parseStats("")).rejects.toBeInstanceOf(ReportError);
  });

  it("refuses a row with a different number of fields (strict column count)", async () => {
    const short = ROWS[1]!.split(",").slice(0, -1).join(",");
    await expect(parseStats(csv(HEADER, ROWS[0]!, short, ROWS[4]!))).rejects.toThrow(
      "run_stats.csv (line 3): the row has 21 fields but the header has 22",
    );
  });

  it("refuses an unclosed quote and a misplaced quote", async () => {
    await expect(parseStats(csv(HEADER, ROWS[0]!, 'GET,"/x,1', ROWS[4]!))).rejects.toThrow(
      "run_stats.csv (line 3): a quoted field is never closed",
    );
    await expect(parseStats(csv(HEADER, 'GET,/a"b",1', ROWS[4]!))).rejects.toThrow(
      'run_stats.csv (line 2): a misplaced quote: a field with quotes must be quoted whole, with inner quotes doubled ("")',
    );
  });

  it("counts lines through a quoted name that spans two lines", async () => {
    const twoLines = ROWS[0]!.replace("GET,/,", 'GET,"/a\r\nb",');
    const bad = ROWS[1]!.replace(",25,0,", ",25,x,");
    await expect(parseStats(csv(HEADER, twoLines, bad, ROWS[4]!))).rejects.toThrow(
      'run_stats.csv (line 4, column 4): "Failure Count" must be a whole number',
    );
    const badTwoLines = twoLines.replace(",31,0,", ",31,x,");
    await expect(parseStats(csv(HEADER, badTwoLines, ROWS[4]!))).rejects.toThrow(
      'run_stats.csv (line 2, column 4): "Failure Count" must be a whole number',
    );
  });

  it("passes on a read error of the upload instead of hanging", async () => {
    const broken = {
      name: "run_stats.csv",
      size: 10,
      open: () =>
        new Readable({
          read() {
            this.destroy(new Error("disk gone"));
          },
        }),
    };
    await expect(parseLocust(uploadOf(broken))).rejects.toThrow("disk gone");
  });

  it("refuses a NUL character, which PostgreSQL cannot store", async () => {
    const row = ROWS[0]!.replace("GET,/,", "GET,/a\u0000b,");
    await expect(parseStats(csv(HEADER, row, ROWS[4]!))).rejects.toThrow(
      'run_stats.csv (line 2, column 2): "Name" contains a NUL character',
    );
  });

  it("bounds the number of rows and the length of a row", async () => {
    const row = ROWS[0]!;
    const many = csv(HEADER, ...Array.from({ length: MAX_LOCUST_ROWS + 1 }, () => row), ROWS[4]!);
    await expect(parseStats(many)).rejects.toThrow(
      `run_stats.csv (line ${MAX_LOCUST_ROWS + 2}): more than ${MAX_LOCUST_ROWS} endpoint rows`,
    );
    const long = row.replace("GET,/,", `GET,/${"a".repeat(70_000)},`);
    await expect(parseStats(csv(HEADER, long, ROWS[4]!))).rejects.toThrow(
      "run_stats.csv (line 2): a row is longer than 65536 characters",
    );
  });

  it("refuses a file that is not Locust's stats CSV", async () => {
    const failures = fixtureText("locust", "run_failures.csv");
    await expect(parseLocust(uploadOf(textFile("errors.csv", failures)))).rejects.toThrow(
      `errors.csv (line 1): not ${EXPECTED}: the header must start with Type,Name,Request Count`,
    );
    await expect(
      parseLocust(uploadOf(fixture("run_failures.csv"), fixture("report.html"))),
    ).rejects.toThrow(`upload: no uploaded file is ${EXPECTED}`);
  });

  it("refuses two stats CSVs in one upload", async () => {
    const upload = uploadOf(fixture("run_stats.csv"), fixture("idle_stats.csv"));
    await expect(parseLocust(upload)).rejects.toThrow(
      "idle_stats.csv: more than one Locust stats CSV in one upload (run_stats.csv, idle_stats.csv); upload one run at a time",
    );
  });
});

describe("detectLocust", () => {
  it("recognises the stats CSV header, plain, quoted or after a byte order mark", () => {
    expect(detectLocust(STATS.slice(0, 4096), "run_stats.csv")).toBe(true);
    expect(detectLocust('"Type","Name","Request Count","Failure Count"', "stats.csv")).toBe(true);
    expect(detectLocust(`\uFEFF${HEADER}`, "x.csv")).toBe(true);
  });

  it("rejects Locust's other files and other formats", () => {
    for (const name of ["run_failures.csv", "run_exceptions.csv", "run_stats_history.csv"]) {
      expect(detectLocust(fixtureText("locust", name), name)).toBe(false);
    }
    expect(detectLocust(fixtureText("locust", "report.html").slice(0, 4096), "report.html")).toBe(
      false,
    );
    expect(detectLocust('<?xml version="1.0"?><testsuites/>', "junit.xml")).toBe(false);
    expect(detectLocust("Type,Name,Request Counter\n", "x.csv")).toBe(false);
  });
});
