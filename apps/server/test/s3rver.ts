import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

/** The few members of s3rver (which ships no types) that the S3 tests use. */
export interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverServer;

/** s3rver, a local S3 server speaking the real wire protocol, for the tests of S3 code. */
export const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
