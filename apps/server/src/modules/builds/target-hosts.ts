import ipaddr from "ipaddr.js";
import { AppError } from "../../errors.js";

/**
 * The hosts a build sends its runner to (nora_site, a load test's host, a backend base URL)
 * may not be link-local or a cloud's metadata service: a runner on a cloud machine would hand
 * its instance credentials to the tests' requests (issue 33). Private addresses stay allowed
 * (test environments live on internal networks); builds.allowLinkLocalTargets lifts this rule.
 */

/** Metadata services outside the link-local ranges: AWS over IPv6, Alibaba Cloud. */
const METADATA_ADDRESSES = new Set(["fd00:ec2::254", "100.100.100.200"]);
/** Names of metadata services (GCP, AWS, Azure's and Oracle's are reached by address). */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** The fields of a build payload that name a host its runner connects to. */
const HOST_FIELDS = ["nora_site", "host", "env"] as const;

/** The host name of a host[:port] or a URL, as a browser would read it (numeric IPv4 forms too). */
function hostnameOf(value: string): string | undefined {
  try {
    const url = new URL(value.includes("://") ? value : `https://${value}`);
    return url.hostname
      .toLowerCase()
      .replace(/\.$/, "")
      .replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}

/** Whether `value` targets a link-local or metadata address. */
export function isMetadataTarget(value: string): boolean {
  const host = hostnameOf(value);
  if (host === undefined) return false;
  if (METADATA_NAMES.has(host)) return true;
  if (!ipaddr.isValid(host)) return false;
  const address = ipaddr.process(host);
  return address.range() === "linkLocal" || METADATA_ADDRESSES.has(address.toString());
}

/** Refuses a payload whose host fields target link-local or metadata addresses (400). */
export function checkTargetHosts(payload: Record<string, unknown>, allowLinkLocal: boolean): void {
  if (allowLinkLocal) return;
  for (const field of HOST_FIELDS) {
    const value = payload[field];
    if (typeof value === "string" && isMetadataTarget(value)) {
      throw new AppError(
        400,
        "invalid_build",
        `${field}: ${value} is a link-local or cloud metadata address, which a build may not target. Use the environment's own host name (an administrator may allow such hosts with builds.allowLinkLocalTargets).`,
        [{ field, message: "link-local or cloud metadata address" }],
      );
    }
  }
}
