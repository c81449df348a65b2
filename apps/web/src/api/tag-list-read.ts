import { TagListSchema } from "@assay/core";
import { queryKeys } from "./query-keys";

/**
 * Every dynamic tag with its tests (GET /v1/dtag): one query for the Dynamic Tags screen, the tag
 * editors and the results dialog, so an edit shows everywhere; the server reads it too for a
 * dialog it renders (first-screen-read.ts).
 */
export const TAG_LIST_READ = { queryKey: queryKeys.tags, path: "/v1/dtag", schema: TagListSchema };
