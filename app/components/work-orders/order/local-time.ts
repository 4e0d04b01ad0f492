/**
 * `<input type="datetime-local">` speaks wall-clock time without a zone; the server stores
 * instants. These convert between the two in the tenant's time zone (not the browser's, so the
 * server action and the page agree).
 */

function parts(instant: number, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  return {
    y: Number(p.year),
    m: Number(p.month),
    d: Number(p.day),
    h: Number(p.hour),
    min: Number(p.minute),
    s: Number(p.second),
  };
}

/** The zone's offset from UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const p = parts(instant, timeZone);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(instant / 1000) * 1000;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/;

/** "2026-12-01T08:00" in `timeZone` → ISO instant; blank → null; anything else → the text as is (the server refuses it). */
export function localToIso(value: string, timeZone: string): string | null {
  const v = value.trim();
  if (!v) return null;
  const m = LOCAL.exec(v);
  if (!m) return v;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  // two passes settle the offset across a DST change
  let instant = wall - offsetAt(wall, timeZone);
  instant = wall - offsetAt(instant, timeZone);
  return new Date(instant).toISOString();
}

/** ISO instant → "2026-12-01T08:00" in `timeZone` (for the input's value); null → "". */
export function isoToLocal(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '';
  const p = parts(t, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.y}-${two(p.m)}-${two(p.d)}T${two(p.h)}:${two(p.min)}`;
}
