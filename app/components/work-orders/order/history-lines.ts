import { formatDuration } from '~/core/work-orders/time-rules';

/** How a value of a change reads: yes/no, lists joined, a time row as "date person h:mm". */
function show(v: unknown, t: (key: string) => string): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return t(v ? 'history.yes' : 'history.no');
  if (Array.isArray(v)) return v.length ? v.map((x) => show(x, t)).join(', ') : '—';
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.workMinutes === 'number')
      return [o.date, o.userName, formatDuration(o.workMinutes)].filter(Boolean).join(' ');
    // a customer or an object: its number and name, or its serial (never the internal id)
    return [o.customerId, o.name, o.serialCode].filter((x) => typeof x === 'string' && x).join(' ') || '—';
  }
  return String(v);
}

/** The changed fields an `edit` row carries, as "field: old → new" lines. */
export function historyChanges(
  data: unknown,
  t: (key: string) => string,
): { field: string; from: string; to: string }[] {
  const d = (data ?? {}) as { changes?: unknown; old?: unknown; new?: unknown };
  // a change of customer or object carries its old and new one directly
  if (!Array.isArray(d.changes))
    return 'old' in d || 'new' in d ? [{ field: '', from: show(d.old, t), to: show(d.new, t) }] : [];
  const list = d.changes;
  return list
    .filter((c): c is { field: string; old?: unknown; new?: unknown } => Boolean(c) && typeof c.field === 'string')
    .map((c) => ({ field: c.field, from: show(c.old, t), to: show(c.new, t) }));
}
