/** The checklist vocabulary, without zod, so pages can import it. */

/** What an item asks for: a tick, a free text or a number. */
export const CHECKLIST_ITEM_TYPES = ['check', 'text', 'number'] as const;
export type ChecklistItemType = (typeof CHECKLIST_ITEM_TYPES)[number];

/** Bounds that keep one template and one filled checklist small. */
export const CHECKLIST_LIMITS = { items: 100, label: 200, title: 100, text: 2000 } as const;

export interface ChecklistItem {
  id: string;
  label: string;
  type: ChecklistItemType;
  required: boolean;
}

/** A template as the settings and the API answer it. */
export interface Checklist {
  id: string;
  title: string;
  workTypeIds: string[];
  items: ChecklistItem[];
  updatedAt: string;
}

/** A filled value: a tick for `check`, text for `text`, a number for `number`. */
export type ChecklistValue = boolean | string | number;
