/**
 * jsdom lays nothing out: every element is 0 px tall, so a virtualized list would show no rows.
 * This gives every element a client height (the virtualizer's viewport) until restored.
 */
export function stubClientHeight(height: number): () => void {
  const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "clientHeight");
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get: () => height,
  });
  return () => {
    if (original) Object.defineProperty(HTMLElement.prototype, "clientHeight", original);
  };
}
