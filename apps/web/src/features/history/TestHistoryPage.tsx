import { NotBuiltYet } from "../../components/NotBuiltYet";

export function TestHistoryPage() {
  return (
    <NotBuiltYet willShow="It will look up a test by its numeric ID and list its past results, with a bar of its passed and failed share." />
  );
}
