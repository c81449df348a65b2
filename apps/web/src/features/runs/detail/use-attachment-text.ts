import { useQuery } from "@tanstack/react-query";
import { getTextStart } from "../../../api/client";
import { objectUrl } from "../../../api/object-url";
import { queryKeys } from "../../../api/query-keys";

/**
 * The start of a text attachment, read from the object store: at most `maxBytes`. Stored objects
 * never change under their key, so the text is read once per dialog session.
 */
export function useAttachmentText(path: string, maxBytes: number) {
  return useQuery({
    queryKey: queryKeys.attachmentText(path, maxBytes),
    queryFn: ({ signal }) => getTextStart(objectUrl(path), maxBytes, signal),
    staleTime: Infinity,
  });
}
