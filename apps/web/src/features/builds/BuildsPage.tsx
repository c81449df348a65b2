import { NotBuiltYet } from "../../components/NotBuiltYet";

export function BuildsPage() {
  return (
    <NotBuiltYet willShow="It will list frontend, backend and load builds on three tabs, and let signed-in users create new builds." />
  );
}
