import { NotBuiltYet } from "../../components/NotBuiltYet";

export function DailyRunSchedulerPage() {
  return (
    <NotBuiltYet willShow="It will be an editable table of daily-run schedules, each with a name, a description and whether it is active." />
  );
}
