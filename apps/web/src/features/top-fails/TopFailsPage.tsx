import { NotBuiltYet } from "../../components/NotBuiltYet";

export function TopFailsPage() {
  return (
    <NotBuiltYet willShow="It will list the tests that failed most often in the last two months, with their fail count and a link to each test's history." />
  );
}
