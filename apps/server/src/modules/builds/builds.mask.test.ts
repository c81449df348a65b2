import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { newBuildToken } from "./build-env.js";
import { executorSecrets, SecretMask } from "./builds.mask.js";

describe("SecretMask", () => {
  const { token } = newBuildToken();
  const mask = new SecretMask(["qa-user:spira-secret-1", "spira-secret-1", "abc"]);

  it("masks build tokens by their shape and the given secrets; short values are left alone", () => {
    expect(mask.apply(`t=${token} s=qa-user:spira-secret-1 x=spira-secret-1 abc`)).toBe(
      "t=*** s=*** x=*** abc",
    );
  });

  it("masks a secret cut across chunks of a stream, one byte at a time included", async () => {
    const line = `before ${token} middle spira-secret-1 after é\n`;
    const bytes = Buffer.from(line.repeat(3));
    const chunks = Array.from(bytes, (byte) => Buffer.from([byte]));
    const out = await text(Readable.from(chunks).pipe(mask.stream()));
    expect(out).toBe("before *** middle *** after é\n".repeat(3));
  });

  it("takes the executors' credential variables from the server's environment, not other values", () => {
    const secrets = executorSecrets(
      [
        {
          kind: "github",
          owner: "o",
          repo: "r",
          workflow: "w.yml",
          apiUrl: "https://x",
          tokenEnv: "GH_TOKEN",
        },
        {
          kind: "codebuild",
          projectName: "p1",
          region: "us-west-2",
          credentialsEnvPrefix: "CN_AWS",
        },
        { kind: "local", command: ["node"], requires: [], passEnv: ["DB_PASSWORD", "LOCALE"] },
      ],
      {
        GH_TOKEN: "ghp_secret",
        CN_AWS_SECRET_ACCESS_KEY: "aws-secret",
        DB_PASSWORD: "pw-123456",
        LOCALE: "en_US",
      },
    );
    expect(secrets.sort()).toEqual(["aws-secret", "ghp_secret", "pw-123456"]);
  });
});
