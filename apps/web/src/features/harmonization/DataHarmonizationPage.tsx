import { NotBuiltYet } from "../../components/NotBuiltYet";

export function DataHarmonizationPage() {
  return (
    <NotBuiltYet willShow="It will compare record counts between source and destination data stores for a chosen platform and environment." />
  );
}
