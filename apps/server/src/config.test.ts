import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../test/temporary-folder.js";
import { ConfigError, EXAMPLE_CONFIG_PATH, loadConfig } from "./config.js";

const dir = temporaryFolder("assay-config-");

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

function writeConfig(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("loadConfig", () => {
  it("uses the documented defaults and the shipped example catalogue", () => {
    const config = loadConfig({}, dir);
    expect(config.port).toBe(8080);
    expect(config.host).toBe("127.0.0.1");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toBe(path.join(dir, "data"));
    expect(config.configPath).toBe(EXAMPLE_CONFIG_PATH);
    expect(config.catalog.documentationLinks.map((l) => l.label)).toEqual([
      "API Documentation",
      "Directory of Legacy UI Tests",
      "Directory of NextGen UI Tests",
      "Directory of Mobile UI Tests",
    ]);
  });

  it("prefers ./assay.config.yaml over the example when it exists", () => {
    const own = mkdtempSync(path.join(dir, "own-"));
    writeFileSync(path.join(own, "assay.config.yaml"), "catalog: {}\n");
    const problems = problemsOf(() => loadConfig({}, own));
    expect(problems.every((p) => p.startsWith("assay.config.yaml: catalog."))).toBe(true);
  });

  it("names every bad environment variable with the expected form", () => {
    const problems = problemsOf(() =>
      loadConfig({ PORT: "eighty", LOG_LEVEL: "loud", DATABASE_URL: "mysql://x" }, dir),
    );
    expect(problems).toEqual([
      'PORT: expected an integer from 1 to 65535, got "eighty"',
      'DATABASE_URL: expected a URL such as postgres://user:pass@host:5432/db, got "mysql://x"',
      expect.stringMatching(/^LOG_LEVEL: expected one of fatal, error, .* got "loud"$/),
    ]);
  });

  it("bounds the files of one upload: 100,000 by default, ASSAY_MAX_UPLOAD_FILES to change it", () => {
    expect(loadConfig({}, dir).maxUploadFiles).toBe(100_000);
    expect(loadConfig({ ASSAY_MAX_UPLOAD_FILES: "250000" }, dir).maxUploadFiles).toBe(250_000);
    for (const bad of ["0", "1.5", "2000000", "many"]) {
      expect(problemsOf(() => loadConfig({ ASSAY_MAX_UPLOAD_FILES: bad }, dir))).toEqual([
        `ASSAY_MAX_UPLOAD_FILES: expected a whole number of files from 1 to 1000000, got "${bad}"`,
      ]);
    }
  });

  it("refuses a port out of range and an invalid host-mode pattern", () => {
    const problems = problemsOf(() =>
      loadConfig({ PORT: "70000", ASSAY_DATA_HARMONIZATION_HOSTS: "(" }, dir),
    );
    expect(problems[0]).toBe('PORT: expected an integer from 1 to 65535, got "70000"');
    expect(problems[1]).toMatch(/^ASSAY_DATA_HARMONIZATION_HOSTS: expected a regular expression/);
  });

  it("reports malformed YAML with the file name, line and column", () => {
    const file = writeConfig("broken.yaml", "catalog:\n  sites: [\n    legacy\n");
    const problems = problemsOf(() => loadConfig({ ASSAY_CONFIG: file }, dir));
    expect(problems[0]).toMatch(/^broken\.yaml line \d+, column \d+: /);
    // The position is said once, not repeated by the YAML library's own message.
    expect(problems[0]).not.toMatch(/at line \d+, column \d+:?$/);
  });

  it("reports unknown keys and bad catalogue values by their path", () => {
    const file = writeConfig("typo.yaml", "catalogue: {}\n");
    const problems = problemsOf(() => loadConfig({ ASSAY_CONFIG: file }, dir));
    expect(problems).toContain(
      "typo.yaml: catalog: Invalid input: expected object, received undefined",
    );
    expect(problems.some((p) => p.includes('Unrecognized key: "catalogue"'))).toBe(true);
  });

  it("says which file is missing", () => {
    const problems = problemsOf(() => loadConfig({ ASSAY_CONFIG: "nowhere.yaml" }, dir));
    expect(problems[0]).toMatch(/^ASSAY_CONFIG: cannot read .*nowhere\.yaml/);
  });

  it("keeps objects in <data dir>/objects unless told otherwise", () => {
    expect(loadConfig({}, dir).objectStore).toEqual({
      kind: "local",
      dir: path.join(dir, "data", "objects"),
    });
  });

  it("reads the S3 settings, with their defaults", () => {
    expect(
      loadConfig({ ASSAY_OBJECT_STORE: "s3", ASSAY_S3_BUCKET: "assay-objects" }, dir),
    ).toMatchObject({
      objectStore: {
        kind: "s3",
        bucket: "assay-objects",
        region: "us-east-1",
        endpoint: undefined,
        forcePathStyle: false,
        prefix: undefined,
      },
    });
    const minio = loadConfig(
      {
        ASSAY_OBJECT_STORE: "s3",
        ASSAY_S3_BUCKET: "assay",
        ASSAY_S3_REGION: "eu-west-3",
        ASSAY_S3_ENDPOINT: "http://minio:9000",
        ASSAY_S3_FORCE_PATH_STYLE: "true",
        ASSAY_S3_PREFIX: "team-a/assay/",
      },
      dir,
    );
    expect(minio.objectStore).toEqual({
      kind: "s3",
      bucket: "assay",
      region: "eu-west-3",
      endpoint: "http://minio:9000",
      forcePathStyle: true,
      prefix: "team-a/assay/",
    });
  });

  it("stops when the S3 store has no bucket, naming ASSAY_S3_BUCKET", () => {
    const problems = problemsOf(() => loadConfig({ ASSAY_OBJECT_STORE: "s3" }, dir));
    expect(problems).toEqual([
      "ASSAY_S3_BUCKET: required when ASSAY_OBJECT_STORE is s3; expected a bucket name such as assay-objects",
    ]);
  });

  it("lists the missing bucket along with the other bad settings", () => {
    const problems = problemsOf(() => loadConfig({ ASSAY_OBJECT_STORE: "s3", PORT: "0" }, dir));
    expect(problems).toEqual([
      'PORT: expected an integer from 1 to 65535, got "0"',
      expect.stringMatching(/^ASSAY_S3_BUCKET: required when ASSAY_OBJECT_STORE is s3/),
    ]);
  });

  it("names each bad object-store setting with the expected form", () => {
    const problems = problemsOf(() =>
      loadConfig(
        {
          ASSAY_OBJECT_STORE: "gcs",
          ASSAY_S3_BUCKET: "Bad_Bucket",
          ASSAY_S3_ENDPOINT: "ftp://minio",
          ASSAY_S3_FORCE_PATH_STYLE: "yes",
          ASSAY_S3_PREFIX: "../up",
        },
        dir,
      ),
    );
    expect(problems).toEqual([
      'ASSAY_OBJECT_STORE: expected local or s3, got "gcs"',
      expect.stringMatching(
        /^ASSAY_S3_BUCKET: expected a bucket name such as assay-objects .*got "Bad_Bucket"$/,
      ),
      expect.stringMatching(/^ASSAY_S3_ENDPOINT: expected an http\(s\) URL .*got "ftp:\/\/minio"$/),
      'ASSAY_S3_FORCE_PATH_STYLE: expected true or false, got "yes"',
      expect.stringMatching(
        /^ASSAY_S3_PREFIX: expected a key prefix such as assay\/ .*got "..\/up"$/,
      ),
    ]);
  });

  it("refuses an S3 endpoint with credentials in it, without quoting them", () => {
    const problems = problemsOf(() =>
      loadConfig({ ASSAY_S3_ENDPOINT: "http://key:secret@minio:9000" }, dir),
    );
    expect(problems[0]).toMatch(
      /^ASSAY_S3_ENDPOINT: expected an http\(s\) URL without credentials/,
    );
    // The error line goes to the log: the password in the rejected URL must not.
    expect(problems[0]).toMatch(/got "http:\/\/\*\*\*@minio:9000"$/);
    expect(problems[0]).not.toContain("secret");
  });

  it("compiles the data-harmonization host pattern", () => {
    const config = loadConfig({ ASSAY_DATA_HARMONIZATION_HOSTS: "^data\\." }, dir);
    expect(config.dataHarmonizationHosts?.test("data.example.com")).toBe(true);
    expect(config.dataHarmonizationHosts?.test("assay.example.com")).toBe(false);
  });
});
