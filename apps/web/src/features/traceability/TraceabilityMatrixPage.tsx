import { NotBuiltYet } from "../../components/NotBuiltYet";

export function TraceabilityMatrixPage() {
  return (
    <NotBuiltYet willShow="It will list the RMS items with the automated tests linked to them, their pass rates and notes, and the overall automation coverage." />
  );
}
