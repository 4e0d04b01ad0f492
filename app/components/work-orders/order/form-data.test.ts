import { describe, expect, it } from 'vitest';
import { workOrderFromForm } from './form-data';

describe('[work orders] the order form as the API body', () => {
  it('takes only the fields the form carried, converts planned times and lists', () => {
    const f = new FormData();
    f.set('title', 'Larmservice');
    f.set('description', '');
    f.set('timeZone', 'Europe/Stockholm');
    f.set('plannedStart', '2026-12-01T08:00');
    f.set('plannedEnd', '');
    f.set('assignees.sent', '1');
    f.append('assignees', 'u1');
    f.append('assignees', 'u1');
    f.append('assignees', 'u2');
    const wo = workOrderFromForm(f, 'Europe/Tallinn');
    expect(wo).toEqual({
      title: 'Larmservice',
      description: '',
      plannedStart: '2026-12-01T07:00:00.000Z',
      plannedEnd: null,
      assignees: ['u1', 'u2'],
    });
    expect('internalInfo' in wo).toBe(false);
    expect('tags' in wo).toBe(false);
  });
  it('reads planned times with seconds, as the date picker posts them, in the tenant zone', () => {
    const f = new FormData();
    f.set('timeZone', 'Europe/Stockholm');
    f.set('plannedStart', '2026-12-01T08:00:00');
    f.set('plannedEnd', '2026-07-01T16:30:00');
    expect(workOrderFromForm(f, 'Europe/Tallinn')).toEqual({
      plannedStart: '2026-12-01T07:00:00.000Z',
      plannedEnd: '2026-07-01T14:30:00.000Z',
    });
  });
  it('an emptied checkbox group still says "none"', () => {
    const f = new FormData();
    f.set('tags.sent', '1');
    expect(workOrderFromForm(f, 'Europe/Stockholm')).toEqual({ tags: [] });
  });
});
