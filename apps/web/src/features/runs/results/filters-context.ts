import { createContext, useContext } from "react";
import type { ResultFilters } from "../report-url";

export interface FiltersValue {
  filters: ResultFilters;
  onFilters: (filters: ResultFilters) => void;
}

/**
 * The results dialog's filters, from the page URL. Given through context rather than props so
 * that a Hide switch re-renders the list and its boxes, not the dialog's frame around them.
 */
export const FiltersContext = createContext<FiltersValue | null>(null);

export function useResultFilters(): FiltersValue {
  const value = useContext(FiltersContext);
  if (!value) throw new Error("useResultFilters needs a FiltersContext provider");
  return value;
}
