import { useRef, useState, type KeyboardEvent, type PointerEvent } from "react";

export interface Offset {
  x: number;
  y: number;
}

const KEY_STEP = 20;
const KEY_MOVES: Record<string, Offset> = {
  ArrowLeft: { x: -KEY_STEP, y: 0 },
  ArrowRight: { x: KEY_STEP, y: 0 },
  ArrowUp: { x: 0, y: -KEY_STEP },
  ArrowDown: { x: 0, y: KEY_STEP },
};

/** Keeps at least part of the dialog on screen, so it can always be dragged back. */
function clamp(offset: Offset): Offset {
  const maxX = Math.max(0, window.innerWidth / 2 - 80);
  const maxY = Math.max(0, window.innerHeight / 2 - 40);
  return {
    x: Math.min(maxX, Math.max(-maxX, offset.x)),
    y: Math.min(maxY, Math.max(-maxY, offset.y)),
  };
}

/**
 * Dragging by a handle with pointer events (mouse, pen and touch alike), and by the arrow keys
 * when the handle has focus. The offset is applied as a transform by the caller.
 */
export function useDrag() {
  const [offset, setOffset] = useState<Offset>({ x: 0, y: 0 });
  const start = useRef<{ pointer: Offset; offset: Offset } | null>(null);

  const handleProps = {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.button !== 0) return;
      // Moves keep coming to the handle even when the pointer outruns it.
      event.currentTarget.setPointerCapture?.(event.pointerId);
      start.current = { pointer: { x: event.clientX, y: event.clientY }, offset };
      event.preventDefault();
    },
    onPointerMove(event: PointerEvent<HTMLElement>) {
      const from = start.current;
      if (!from) return;
      setOffset(
        clamp({
          x: from.offset.x + event.clientX - from.pointer.x,
          y: from.offset.y + event.clientY - from.pointer.y,
        }),
      );
    },
    onPointerUp() {
      start.current = null;
    },
    onPointerCancel() {
      start.current = null;
    },
    onKeyDown(event: KeyboardEvent<HTMLElement>) {
      const move = KEY_MOVES[event.key];
      if (!move) return;
      event.preventDefault();
      setOffset((current) => clamp({ x: current.x + move.x, y: current.y + move.y }));
    },
  };

  return { offset, handleProps };
}
