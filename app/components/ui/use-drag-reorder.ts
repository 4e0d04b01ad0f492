import { useState, type DragEvent } from 'react';

/**
 * HTML5 drag and drop to reorder a list's items: spread `drag(i)` on each item and read
 * `dragged` to dim the one in hand; dropping on item `i` calls `onMove(from, i)`. With
 * `handleOnly`, a drag starts only from an element marked `data-drag-handle` (text in inputs stays
 * selectable). Keyboard users need buttons beside it; this is the mouse's way.
 */
export function useDragReorder({
  enabled,
  handleOnly = false,
  onMove,
}: {
  enabled: boolean;
  handleOnly?: boolean;
  onMove: (from: number, to: number) => void;
}) {
  const [dragged, setDragged] = useState<number | null>(null);
  const drag = (i: number) =>
    enabled
      ? {
          draggable: true,
          onDragStart: (e: DragEvent) => {
            if (handleOnly && !(e.target as HTMLElement).closest?.('[data-drag-handle]')) return e.preventDefault();
            e.dataTransfer.effectAllowed = 'move';
            setDragged(i);
          },
          onDragOver: (e: DragEvent) => {
            if (dragged !== null) e.preventDefault();
          },
          onDrop: (e: DragEvent) => {
            e.preventDefault();
            if (dragged !== null) onMove(dragged, i);
            setDragged(null);
          },
          onDragEnd: () => setDragged(null),
        }
      : {};
  return { drag, dragged };
}
