import { describe, expect, it } from 'vitest';
import { assigneeError, changedFields, isoWeekOf, requiredFieldErrors } from './work-order-rules';

describe('work-order rules', () => {
  it('requires every configured field on create, and on edit only those sent', () => {
    expect(requiredFieldErrors(['tag', 'email', 'onSiteContact'], { title: 'x', tags: [] }, 'create')).toEqual({
      tags: ['ERROR_REQUIRED_FIELD'],
      contactEmail: ['ERROR_REQUIRED_FIELD'],
      onSiteContactName: ['ERROR_REQUIRED_FIELD'],
    });
    expect(requiredFieldErrors(['description'], { description: '  ' }, 'create')).toEqual({
      description: ['ERROR_REQUIRED_FIELD'],
    });
    expect(requiredFieldErrors(['description', 'phone'], { title: 'y' }, 'edit')).toEqual({});
    expect(requiredFieldErrors(['phone'], { contactPhone: null }, 'edit')).toEqual({
      contactPhone: ['ERROR_REQUIRED_FIELD'],
    });
    expect(requiredFieldErrors(['tag'], { tags: ['a'] }, 'create')).toEqual({});
  });

  it('needs at least one assignee and nobody twice', () => {
    expect(assigneeError([])).toBe('ERROR_AT_LEAST_ONE_ASSIGNEE');
    expect(assigneeError(['a', 'b', 'A'])).toBe('ERROR_USER_ALREADY_ADDED');
    expect(assigneeError(['a', 'b'])).toBeNull();
  });

  it('lists the changed fields with old and new values, ignoring order of lists and unsent keys', () => {
    const d1 = new Date('2026-11-20T08:00:00Z');
    expect(
      changedFields(
        { title: 'A', city: null, tags: ['x', 'y'], plannedStart: null, summary: 's' },
        { title: 'B', city: null, tags: ['y', 'x'], plannedStart: d1 },
        ['title', 'city', 'tags', 'plannedStart', 'summary'],
      ),
    ).toEqual([
      { field: 'title', old: 'A', new: 'B' },
      { field: 'plannedStart', old: null, new: '2026-11-20T08:00:00.000Z' },
    ]);
  });

  it("gives the ISO week Monday to Sunday in the tenant's zone, across a year end", () => {
    const se = 'Europe/Stockholm';
    expect(isoWeekOf(new Date('2026-11-22T22:59:00Z'), se)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    // Monday 00:00 in Stockholm is still Sunday in UTC
    expect(isoWeekOf(new Date('2026-11-22T23:00:00Z'), se)).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(isoWeekOf(new Date('2026-11-22T23:00:00Z'), 'UTC')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(isoWeekOf(new Date('2027-01-01T12:00:00Z'), se)).toEqual({ from: '2026-12-28', to: '2027-01-03' });
  });
});
