import type { NotifyChannel, NotifyDelivery, NotifyFilters, NotifyWhen } from "@assay/core";

/** The words the Setting screen uses for a rule's parts. */

export const CHANNEL_LABEL: Record<NotifyChannel, string> = {
  slack: "Slack",
  teams: "Microsoft Teams",
  email: "Email",
  webhook: "Webhook (JSON)",
};

export const WHEN_LABEL: Record<NotifyWhen, string> = {
  always: "Every run",
  failure: "On failure",
  recovery: "On recovery after a failure",
  new_failures: "On new failures",
};

export const STATE_LABEL: Record<NotifyDelivery["state"], string> = {
  pending: "Pending",
  sent: "Sent",
  failed: "Failed",
  skipped: "Not sent",
};

const FILTER_LABEL: Record<keyof NotifyFilters, string> = {
  family: "family",
  platform: "platform",
  branch: "branch",
  site: "site",
  environment: "environment",
  name: "name contains",
};

export function filtersText(filters: NotifyFilters): string {
  const parts = (Object.keys(FILTER_LABEL) as (keyof NotifyFilters)[])
    .filter((key) => filters[key])
    .map((key) => `${FILTER_LABEL[key]} ${filters[key]}`);
  return parts.length > 0 ? parts.join(", ") : "Every run";
}
