import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import { LocalObjectStore } from "./local-store.js";
import type { ObjectStore } from "./object-store.js";

export { keyProblem, newObjectKey, validateKey } from "./object-store.js";
export type { ObjectStore, PutResult, StoredObject } from "./object-store.js";

/**
 * The object store the configuration names: the local folder by default, an S3-compatible
 * bucket with ASSAY_OBJECT_STORE=s3. Nothing is sent to S3 here, so a store that is down
 * makes uploads and downloads fail with 503 rather than stopping the start.
 */
export async function createObjectStore(
  config: Pick<Config, "objectStore">,
  log: FastifyBaseLogger,
): Promise<ObjectStore> {
  const settings = config.objectStore;
  if (settings.kind === "local") {
    const store = new LocalObjectStore(settings.dir);
    const removed = await store.init();
    if (removed > 0)
      log.warn(
        { partialObjects: removed },
        "removed half-written objects of a killed Assay process",
      );
    log.info({ objectStore: { kind: "local", dir: store.root } }, "object store ready");
    return store;
  }
  const { bucket, region, endpoint, forcePathStyle, prefix } = settings;
  // Where, never who: the credentials stay inside the SDK.
  log.info(
    { objectStore: { kind: "s3", bucket, region, endpoint, forcePathStyle, prefix } },
    "object store ready",
  );
  // Loaded only when configured: the AWS SDK adds ~20 MB to the server's memory.
  const { S3ObjectStore } = await import("./s3-store.js");
  return new S3ObjectStore({ bucket, region, endpoint, forcePathStyle, prefix }, log);
}
