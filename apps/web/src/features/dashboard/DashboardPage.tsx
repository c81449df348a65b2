import { NotBuiltYet } from "../../components/NotBuiltYet";

export function DashboardPage() {
  return (
    <NotBuiltYet willShow="It will chart the daily UI and API test runs per day (total, passed, failed and skipped) and list the runs of the daily rerun-failed executor." />
  );
}
