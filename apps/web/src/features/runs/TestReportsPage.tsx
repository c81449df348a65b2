import { NotBuiltYet } from "../../components/NotBuiltYet";

export function TestReportsPage() {
  return (
    <NotBuiltYet willShow="It will list frontend, backend and load test runs on three tabs; opening a run shows its results, screenshots and failure summary." />
  );
}
