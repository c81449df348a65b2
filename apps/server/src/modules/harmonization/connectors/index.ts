import path from "node:path";
import type { DhSource } from "@assay/core";
import type { DhSecrets } from "../../../config.js";
import { ConnectorError, type Connector } from "./connector.js";

export { ConnectorError, reasonOf, type Connector, type DocumentInfo } from "./connector.js";

export interface ConnectorContext {
  secrets: DhSecrets;
  /** Assay's own PostgreSQL, for sources with assayDatabase: true (the demo). */
  assayDatabaseUrl: string;
  /** Assay's data folder: folder sources live under it. */
  dataDir: string;
}

function secret(context: ConnectorContext, name: string): string {
  const value = context.secrets.get(name);
  // config.ts refuses to start without it; this guards a settings object built by hand.
  if (!value) throw new ConnectorError(`The environment variable ${name} is not set.`);
  return value;
}

/** The connector of a configured source; drivers are loaded only when a source uses them. */
export async function openConnector(
  source: DhSource,
  context: ConnectorContext,
): Promise<Connector> {
  const limits = { timeoutMs: source.timeoutMs, maxConnections: source.maxConnections };
  switch (source.kind) {
    case "mysql": {
      const { MysqlConnector } = await import("./mysql.js");
      return new MysqlConnector({ url: secret(context, source.urlEnv), ...limits });
    }
    case "postgres": {
      const { PostgresConnector } = await import("./postgres.js");
      const url = source.urlEnv ? secret(context, source.urlEnv) : context.assayDatabaseUrl;
      return new PostgresConnector({ url, ...limits });
    }
    case "s3": {
      const { S3Connector } = await import("./s3.js");
      const credentials =
        source.accessKeyIdEnv && source.secretAccessKeyEnv
          ? {
              accessKeyId: secret(context, source.accessKeyIdEnv),
              secretAccessKey: secret(context, source.secretAccessKeyEnv),
            }
          : undefined;
      return new S3Connector({
        bucket: source.bucket,
        region: source.region,
        endpoint: source.endpoint,
        forcePathStyle: source.forcePathStyle,
        credentials,
        ...limits,
      });
    }
    case "folder": {
      const { FolderConnector } = await import("./folder.js");
      return new FolderConnector(path.resolve(context.dataDir, source.dir));
    }
    case "documentdb": {
      const { DocumentDbConnector } = await import("./documentdb.js");
      return new DocumentDbConnector({
        url: secret(context, source.urlEnv),
        database: source.database,
        ...limits,
      });
    }
  }
}

/** Whether a source is built into Assay (its own database or data folder): demo data. */
export function isBuiltInSource(source: DhSource): boolean {
  return source.kind === "folder" || (source.kind === "postgres" && source.assayDatabase === true);
}
