import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, EXAMPLE_CONFIG_PATH, loadConfig } from "../../config.js";

/** dataHarmonization in assay.config.yaml: validated at start, secrets only from the environment. */

let dir: string;
let catalog: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "assay-dh-config-"));
  const example = await readFile(EXAMPLE_CONFIG_PATH, "utf8");
  // The example's catalogue, without its demo dataHarmonization section.
  catalog = example.slice(0, example.indexOf("\n# Data Harmonization (/data)"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SECTION = `
dataHarmonization:
  sources:
    legacy-mysql: { kind: mysql, urlEnv: DH_TEST_MYSQL_URL, timeoutMs: 5000 }
    legacy-redshift: { kind: postgres, urlEnv: DH_TEST_REDSHIFT_URL }
  environments:
    legacy:
      - { value: legacy-dev, alias: Legacy Dev, envType: dev, type: sql, source: legacy-mysql, destination: legacy-redshift, entities: [{ entity: Subjects, source: subjects, destination: dh.subjects }] }
  global:
    schemas: { trial: [study], admin: [users], notifications: [notification], scheduler: [job], tenant: [tenant], reference: [country] }
`;

async function load(section: string, env: Record<string, string> = {}) {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, catalog + section);
  return loadConfig({ ASSAY_CONFIG: file, ...env });
}

const problemsOf = async (section: string, env: Record<string, string> = {}) => {
  try {
    await load(section, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe("dataHarmonization configuration", () => {
  const secrets = {
    DH_TEST_MYSQL_URL: "mysql://dh:s3cret-mysql@db.internal:3306/legacy",
    DH_TEST_REDSHIFT_URL: "postgres://dh:s3cret-redshift@rs.internal:5439/dw",
  };

  it("reads the secrets from the variables the file names, and never serializes them", async () => {
    const config = await load(SECTION, secrets);
    const dh = config.dataHarmonization;
    expect(dh?.secrets.get("DH_TEST_MYSQL_URL")).toBe(secrets.DH_TEST_MYSQL_URL);
    expect(dh?.config.environments.legacy[0]?.entities[0]?.destination).toBe("dh.subjects");
    const serialized = JSON.stringify(config);
    expect(serialized).not.toContain("s3cret");
  });

  it("refuses to start when a named variable is not set, naming it but no value", async () => {
    const problems = await problemsOf(SECTION, { DH_TEST_MYSQL_URL: secrets.DH_TEST_MYSQL_URL });
    expect(problems).toEqual([
      expect.stringMatching(
        /sources\.legacy-redshift: the environment variable DH_TEST_REDSHIFT_URL is not set/,
      ),
    ]);
  });

  it("reads a secret from NAME_FILE (a secret store's file), refusing an unreadable one", async () => {
    const file = path.join(dir, "redshift-url");
    await writeFile(file, `${secrets.DH_TEST_REDSHIFT_URL}\n`);
    const env = { DH_TEST_MYSQL_URL: secrets.DH_TEST_MYSQL_URL, DH_TEST_REDSHIFT_URL_FILE: file };
    const config = await load(SECTION, env);
    expect(config.dataHarmonization?.secrets.get("DH_TEST_REDSHIFT_URL")).toBe(
      secrets.DH_TEST_REDSHIFT_URL,
    );
    const missing = path.join(dir, "no-such-secret");
    const problems = await problemsOf(SECTION, { ...env, DH_TEST_REDSHIFT_URL_FILE: missing });
    expect(problems).toEqual([
      `dataHarmonization.sources.legacy-redshift: DH_TEST_REDSHIFT_URL_FILE names a file Assay cannot read (${missing}: ENOENT)`,
    ]);
  });

  it("refuses a table name that is not a plain identifier, and an unknown source", async () => {
    const bad = SECTION.replace("source: subjects", 'source: "subjects; drop table x"').replace(
      "destination: legacy-redshift",
      "destination: nowhere",
    );
    const problems = await problemsOf(bad, secrets);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/entities\[0\]\.source: expected a table or collection name/),
        expect.stringMatching(/destination: no source named "nowhere"/),
      ]),
    );
  });

  it("refuses a DSN written in the file instead of a variable's name", async () => {
    const inline = SECTION.replace("urlEnv: DH_TEST_MYSQL_URL", "urlEnv: mysql://dh:pw@host/db");
    const problems = await problemsOf(inline, secrets);
    expect(problems.join("\n")).toMatch(/expected the NAME of an environment variable/);
    expect(problems.join("\n")).not.toContain("dh:pw");
  });

  it("needs a fhir section for an environment whose name routes to FHIR", async () => {
    const fhir = SECTION.replace("value: legacy-dev", "value: legacy-fhir-dev");
    expect(await problemsOf(fhir, secrets)).toEqual([
      expect.stringMatching(/environments\.legacy\[0\]: a fhir environment needs fhir:/),
    ]);
  });
});
