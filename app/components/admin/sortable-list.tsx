import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useRef, type ReactNode } from "react";
import { moveEntry } from "~/lib/reorder";

/**
 * A vertical list reordered by dragging a row's handle or with the keyboard: focus the handle, Space
 * or Enter to pick the row up, arrow keys to move it, Space or Enter to drop, Escape to cancel.
 * Screen readers hear where the row is as it moves. `onReorder` gets the whole new order.
 */
interface SortableListProps<T extends { id: string }> {
  /** A stable id: dnd-kit derives its aria ids from it, so server and browser render the same. */
  id: string;
  items: T[];
  /** How a row is named to assistive technology ("Reorder {label}"). */
  getLabel: (item: T) => string;
  onReorder: (items: T[]) => void;
  renderItem: (item: T, handle: ReactNode) => ReactNode;
  disabled?: boolean;
  "aria-label": string;
}

export function SortableList<T extends { id: string }>({ id, items, getLabel, onReorder, renderItem, disabled, ...rest }: SortableListProps<T>) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const labelOf = (itemId: UniqueIdentifier) => {
    const item = items.find((i) => i.id === itemId);
    return item ? getLabel(item) : String(itemId);
  };
  const positionOf = (itemId: UniqueIdentifier | undefined) => items.findIndex((i) => i.id === itemId) + 1;
  // dnd-kit reports the row over its own place right after pick-up; saying so would cut "Picked up" short.
  const lastOver = useRef<UniqueIdentifier | null>(null);
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      lastOver.current = active.id;
      return `Picked up ${labelOf(active.id)}, position ${positionOf(active.id)} of ${items.length}.`;
    },
    onDragOver: ({ active, over }) => {
      if (!over || over.id === lastOver.current) return undefined;
      lastOver.current = over.id;
      return `${labelOf(active.id)} is over position ${positionOf(over.id)} of ${items.length}.`;
    },
    onDragEnd: ({ active, over }) =>
      over ? `Dropped ${labelOf(active.id)} at position ${positionOf(over.id)} of ${items.length}.` : `Dropped ${labelOf(active.id)}.`,
    onDragCancel: ({ active }) => `Moving ${labelOf(active.id)} was cancelled.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = items.findIndex((i) => i.id === active.id);
    const to = items.findIndex((i) => i.id === over.id);
    if (from >= 0 && to >= 0) onReorder(moveEntry(items, from, to));
  };

  return (
    <DndContext id={id} sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements }}>
      <SortableContext items={items.map((i) => i.id)} strategy={verticalListSortingStrategy} disabled={disabled}>
        <ol className="sortable-list" aria-label={rest["aria-label"]}>
          {items.map((item) => (
            <SortableRow key={item.id} id={item.id} label={getLabel(item)}>
              {(handle) => renderItem(item, handle)}
            </SortableRow>
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({ id, label, children }: { id: string; label: string; children: (handle: ReactNode) => ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const handle = (
    <button
      type="button"
      ref={setActivatorNodeRef}
      className="sortable-handle"
      {...attributes}
      {...listeners}
      aria-label={`Reorder ${label}`}
    >
      <i className="pi pi-bars" aria-hidden="true" />
    </button>
  );
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? "sortable-row is-dragging" : "sortable-row"}
      style={{ transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined, transition }}
      data-sortable-id={id}
    >
      {children(handle)}
    </li>
  );
}
