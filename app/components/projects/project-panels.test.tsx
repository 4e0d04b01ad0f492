import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import type { ActivitiesPanelData } from '~/core/projects/activity.service';
import type { ExtraWorkLink } from '~/core/projects/extra-work-link.service';
import { ActivitiesContent } from './activities-panel';
import { ExtraWorkContent } from './extra-work-panel';

/** Server-render tests of the project screen's activities and extra-work panels, in English, every key present. */
const render = await englishRenderer(['projects']);

const config = { dateFormat: 'DD.MM.YYYY' as const, country: 'SE' };

const activities = (canEdit: boolean, closed = false): ActivitiesPanelData => ({
  activities: [
    {
      id: 'a1',
      projectId: 'p1',
      title: 'Kabeldragning',
      description: 'Plan 2',
      dueDate: '2026-05-04',
      responsibleUserId: 'u1',
      responsibleUserName: 'Tess Tekniker',
      sortOrder: 1,
      completed: true,
      completedAt: '2026-03-05T07:30:00.000Z',
      completedByName: 'Anna Kontor',
      createdAt: '2026-03-01T10:00:00.000Z',
    },
    {
      id: 'a2',
      projectId: 'p1',
      title: 'Montage',
      description: null,
      dueDate: null,
      responsibleUserId: null,
      responsibleUserName: null,
      sortOrder: 2,
      completed: false,
      completedAt: null,
      completedByName: null,
      createdAt: '2026-03-01T10:00:00.000Z',
    },
  ],
  users: canEdit ? [{ id: 'u1', name: 'Tess Tekniker' }] : [],
  canEdit,
  projectClosed: closed,
});

describe('[projects] activities panel', () => {
  it('lists the activities in order with due date, responsible and who completed them, and keyboard moves', () => {
    const html = render(<ActivitiesContent projectId="p1" canEdit data={activities(true)} config={config} />);
    expect(html).toContain('Activities');
    expect(html).toContain('Add activity');
    expect(html.indexOf('Kabeldragning')).toBeLessThan(html.indexOf('Montage'));
    expect(html).toContain('Due 04.05.2026');
    expect(html).toContain('Responsible: Tess Tekniker');
    expect(html).toContain('Done 05.03.2026 08:30 (Anna Kontor)');
    expect(html).toContain('aria-label="Move up: Montage"');
    expect(html).toContain('aria-label="Move down: Kabeldragning"');
    expect(html).toContain('aria-label="Edit Montage"');
    expect(html).toContain('aria-label="Delete Montage"');
    expect(html).toContain('draggable="true"');
  });

  it('is read-only without the right or in a closed project', () => {
    for (const html of [
      render(<ActivitiesContent projectId="p1" canEdit={false} data={activities(true)} config={config} />),
      render(<ActivitiesContent projectId="p1" canEdit data={activities(false, true)} config={config} />),
    ]) {
      expect(html).not.toContain('Add activity');
      expect(html).not.toContain('Move up');
      expect(html).not.toContain('draggable="true"');
    }
    expect(
      render(<ActivitiesContent projectId="p1" canEdit data={activities(false, true)} config={config} />),
    ).toContain('The project is closed');
  });
});

const links: ExtraWorkLink[] = [
  {
    id: 'l2',
    email: 'ordf@eken.se',
    sentAt: '2026-03-06T09:00:00.000Z',
    sentByName: 'Åsa Projekt',
    expiresAt: '2026-03-20T09:00:00.000Z',
    state: 'answered',
    answer: 'accepted',
    answeredAt: '2026-03-07T12:00:00.000Z',
    answeredName: 'Karin Ek',
  },
  {
    id: 'l1',
    email: 'styrelsen@eken.se',
    sentAt: '2026-03-05T09:00:00.000Z',
    sentByName: null,
    expiresAt: '2026-03-19T09:00:00.000Z',
    state: 'superseded',
    answer: null,
    answeredAt: null,
    answeredName: null,
  },
];

describe('[projects] extra-work panel', () => {
  const workOrder = { id: 'w1', number: '1042', title: 'Extra detektorer', projectExtraStatus: 'pending' as const };

  it('shows the status, the send and answer buttons and the links with their answers', () => {
    const html = render(
      <ExtraWorkContent
        projectId="p1"
        workOrder={workOrder}
        canCreate
        canAccept
        defaultEmail="styrelsen@eken.se"
        links={links}
        status="pending"
        amount="4435.00"
        config={config}
      />,
    );
    expect(html).toContain('Work order 1042: Extra detektorer');
    expect(html).toContain('Amount excluding VAT: 4 435,00');
    expect(html).toContain('Awaiting approval');
    expect(html).toContain('Send for approval');
    expect(html).toContain('Accept');
    expect(html).toContain('Decline');
    expect(html).toContain('Approved by Karin Ek on 07.03.2026 13:00');
    expect(html).toContain('Replaced by a newer link');
    expect(html).toContain('Sent 06.03.2026 10:00 by Åsa Projekt');
  });

  it('offers only what the user may do', () => {
    const html = render(
      <ExtraWorkContent
        projectId="p1"
        workOrder={{ ...workOrder, projectExtraStatus: null }}
        canCreate
        canAccept={false}
        links={[]}
        status={null}
        config={config}
      />,
    );
    expect(html).toContain('Mark as extra work');
    expect(html).not.toContain('Send for approval');
    expect(html).not.toContain('>Accept<');
    expect(html).toContain('No link has been sent.');
  });
});

describe('[projects] the customer’s extra-work page', async () => {
  const { default: ExtraWorkPage } = await import('~/app/routes/extra-work.$token');
  type Props = Parameters<typeof ExtraWorkPage>[0];
  const page = (loaderData: unknown) => render(<ExtraWorkPage {...({ loaderData } as unknown as Props)} />);

  it('shows the company, the project, the order with articles and time, and the answer form', () => {
    const html = page({
      config,
      page: {
        state: 'open',
        view: {
          company: 'Nordlarm AB',
          currency: 'kr',
          project: { number: 1001, title: 'Nytt larm' },
          workOrder: { number: '1042', title: 'Extra detektorer', description: 'Två i trapphuset' },
          articles: [
            { title: 'Larmkabel', description: null, unit: 'm', amount: '20', price: '12.50', total: '250.00' },
          ],
          total: '250.00',
          time: { workMinutes: 150, travelMinutes: 30 },
          expiresAt: '2026-03-20T09:00:00.000Z',
        },
      },
    });
    expect(html).toContain('Nordlarm AB');
    expect(html).toContain('Work order 1042: Extra detektorer');
    expect(html).toContain('Project 1001 Nytt larm');
    expect(html).toContain('20 m');
    expect(html).toContain('250,00 kr');
    expect(html).toContain('2 h 30 min work, 30 min travel');
    expect(html).toContain('Your name');
    expect(html).toContain('Approve');
    expect(html).toContain('Decline');
  });

  it('says only that a link no longer works', () => {
    const html = page({ config, page: { state: 'gone', company: 'Nordlarm AB' } });
    expect(html).toContain('This link no longer works');
    expect(html).not.toContain('Approve');
  });
});
