import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import type { RemindersPanelData } from '~/core/work-orders/reminders.service';
import { RemindersContent } from './reminders-panel';

/** Server-render tests of the order screen's reminders panel, in English, every key present. */
const render = await englishRenderer(['reminders']);

const config = { dateFormat: 'DD.MM.YYYY' as const, country: 'SE' };

const data = (canEdit: boolean): RemindersPanelData => ({
  reminders: [
    {
      id: 'r1',
      workOrderId: 'w1',
      userId: 'u1',
      userName: 'Tess Tekniker',
      dueAt: '2026-03-05T07:30:00.000Z',
      message: 'Ring kunden före besöket',
      createdBy: 'u2',
      createdByName: 'Anna Kontor',
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      sentAt: '2026-03-05T07:30:20.000Z',
    },
    {
      id: 'r2',
      workOrderId: 'w1',
      userId: 'u2',
      userName: 'Anna Kontor',
      dueAt: '2026-06-10T12:00:00.000Z',
      message: '',
      createdBy: null,
      createdByName: null,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      sentAt: null,
    },
  ],
  users: canEdit ? [{ id: 'u1', name: 'Tess Tekniker' }] : [],
  defaultUserId: canEdit ? 'u1' : null,
  canEdit,
});

describe('[work orders] reminders panel', () => {
  it("shows each reminder's due time in the tenant's format and zone, whom, the message and whether it was sent", () => {
    const html = render(
      <RemindersContent workOrderId="w1" data={data(true)} config={config} timeZone="Europe/Stockholm" />,
    );
    expect(html).toContain('Reminders');
    // 07:30 UTC is 08:30 in Stockholm in March, 12:00 UTC 14:00 in June
    expect(html).toContain('05.03.2026 08:30');
    expect(html).toContain('10.06.2026 14:00');
    expect(html).toContain('Ring kunden före besöket');
    expect(html).toContain('Added by Anna Kontor');
    expect(html).toContain('Sent');
    expect(html).toContain('Not sent yet');
    expect(html).toContain('Add reminder');
    expect(html).toContain('Edit the reminder for Tess Tekniker at 05.03.2026 08:30');
    expect(html).toContain('Delete the reminder for Anna Kontor at 10.06.2026 14:00');
  });

  it('offers no changes without workorders:edit, and says when there are none', () => {
    const html = render(
      <RemindersContent workOrderId="w1" data={data(false)} config={config} timeZone="Europe/Stockholm" />,
    );
    expect(html).toContain('Ring kunden före besöket');
    expect(html).not.toContain('Add reminder');
    expect(html).not.toContain('Edit the reminder for');
    const empty = render(
      <RemindersContent
        workOrderId="w1"
        data={{ ...data(true), reminders: [] }}
        config={config}
        timeZone="Europe/Stockholm"
      />,
    );
    expect(empty).toContain('No reminders on this order.');
  });
});
