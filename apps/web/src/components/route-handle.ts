import { useMatches } from "react-router";

/** What a route tells the chrome around it: the header title and which sidebar entry it is. */
export interface RouteHandle {
  title: string;
  navId?: string;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === "object" && value !== null && "title" in value;
}

/** The handle of the deepest matched route, so the title and highlight follow the router's match. */
export function useRouteHandle(): RouteHandle | undefined {
  return useMatches()
    .map((match) => match.handle)
    .findLast(isRouteHandle);
}
