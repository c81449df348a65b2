import { NotBuiltYet } from "../../components/NotBuiltYet";

export function PrintPage() {
  return (
    <NotBuiltYet willShow="It will show a test's screenshots, each with its description and timestamp, grouped with the steps that precede it, ready to print." />
  );
}
