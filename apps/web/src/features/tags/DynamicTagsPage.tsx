import { NotBuiltYet } from "../../components/NotBuiltYet";

export function DynamicTagsPage() {
  return (
    <NotBuiltYet willShow="It will show every dynamic tag, sorted by name, with the tests it holds as TC{id} and name." />
  );
}
