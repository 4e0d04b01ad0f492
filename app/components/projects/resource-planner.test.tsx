import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import { BoardGrid } from '~/app/components/work-orders/calendar/board-grid';
import { viewColumns, type CalendarView } from '~/core/work-orders/calendar-rules';
import type { ResourcePlan, ResourceRow } from '~/core/projects/resource.service';
import type { Board, BoardItem } from '~/core/work-orders/schedule.service';
import { ResourcePlanner } from './resource-planner';

/** Server-render tests of the resource planner and the board's project rows, in English, every key present. */
const render = await englishRenderer(['projects', 'calendar']);

const row = (patch: Partial<ResourceRow>): ResourceRow => ({
  id: 'r1',
  projectId: 'p1',
  projectNumber: 1001,
  projectTitle: 'Larm Solrosen',
  projectStatus: 'ongoing',
  userId: 'u1',
  supplierId: null,
  startDate: '2026-03-02',
  endDate: '2026-03-13',
  hoursPerDay: null,
  comment: null,
  ...patch,
});

const plan: ResourcePlan = {
  from: '2026-02-23',
  to: '2026-05-31',
  today: '2026-03-10',
  projectId: null,
  weeks: Array.from({ length: 14 }, (_, i) => {
    const d = new Date(Date.UTC(2026, 1, 23 + i * 7));
    return { year: 2026, week: 9 + i, start: d.toISOString().slice(0, 10) };
  }),
  people: [
    {
      userId: 'u1',
      name: 'Tess Tekniker',
      active: true,
      rows: [
        row({}),
        row({
          id: 'r2',
          projectId: 'p2',
          projectNumber: 1002,
          projectTitle: 'Passage Kvarnen',
          startDate: '2026-03-09',
          endDate: '2026-03-20',
          hoursPerDay: 7.5,
        }),
      ],
    },
    { userId: 'u2', name: 'Anna Admin', active: true, rows: [] },
  ],
  suppliers: [
    {
      supplierId: 's1',
      number: 'L1',
      name: 'Elektro AB',
      rows: [row({ id: 'r3', userId: null, supplierId: 's1', projectStatus: 'closed' })],
    },
  ],
  conflicts: [
    {
      userId: 'u1',
      kind: 'overlap',
      year: 2026,
      week: 11,
      weekStart: '2026-03-09',
      dates: ['2026-03-09', '2026-03-13'],
      projects: [
        { id: 'p1', number: 1001, title: 'Larm Solrosen' },
        { id: 'p2', number: 1002, title: 'Passage Kvarnen' },
      ],
      workOrders: [],
    },
    {
      userId: 'u1',
      kind: 'workOrder',
      year: 2026,
      week: 10,
      weekStart: '2026-03-02',
      dates: ['2026-03-03'],
      projects: [{ id: 'p1', number: 1001, title: 'Larm Solrosen' }],
      workOrders: [{ id: 'w1', number: '5001', title: 'Kamera kaj 3', date: '2026-03-03', projectId: 'p3' }],
    },
  ],
  canEdit: true,
};

describe('[projects] the resource planner', () => {
  it('draws a row per person and supplier, bars named by project and dates, clashes marked and listed', () => {
    const html = render(
      <ResourcePlanner canEdit step={3} initialFrom="2026-03-10" initialPlan={plan} onViewChange={() => undefined} />,
    );
    expect(html).toContain('Mar 2026 – May 2026');
    expect(html).toContain('aria-pressed="true"');
    expect(html).toContain('aria-label="1001 · Larm Solrosen, 2026-03-02 – 2026-03-13, Tess Tekniker"');
    expect(html).toContain('aria-label="1002 · Passage Kvarnen, 2026-03-09 – 2026-03-20, 7,5 h/day, Tess Tekniker"');
    // a closed project's plan is shown, not dragged
    expect(html).toContain('1001 · Larm Solrosen, 2026-03-02 – 2026-03-13, Elektro AB, project closed');
    expect(html).toContain('Plan Anna Admin');
    expect(html).toContain(
      'Week 11: planned on more than one project (1001 · Larm Solrosen, 1002 · Passage Kvarnen) on 2026-03-09, 2026-03-13.',
    );
    expect(html).toContain(
      'Week 10: planned on 1001 · Larm Solrosen but scheduled on other work orders: 5001 Kamera kaj 3 (2026-03-03).',
    );
    expect(html).toContain('Conflicts in this period: 2');
    expect(html).toContain('data-testid="conflict-u1-2026-03-09"');
    expect(html).toContain('Suppliers');
    // the bars of people who may change them can be dragged by the end
    expect(html.match(/data-testid="resource-resize"/g)).toHaveLength(2);
  });

  it('reads only without projects:edit', () => {
    const html = render(
      <ResourcePlanner
        canEdit={false}
        step={1}
        initialFrom="2026-03-10"
        initialPlan={{ ...plan, canEdit: false }}
        onViewChange={() => undefined}
      />,
    );
    expect(html).not.toContain('data-testid="resource-resize"');
    expect(html).not.toContain('Plan Anna Admin');
  });
});

describe('[work orders] the board’s project perspective', () => {
  it('names each project by number and title and has a row for orders of no project', () => {
    const view: CalendarView = {
      period: 'month',
      perspective: 'project',
      anchor: { year: 2026, month: 3, day: 1 },
      step: 1,
    };
    const item = (id: string, projectId: string | null): BoardItem => ({
      id,
      workOrderId: `wo-${id}`,
      userId: 'u1',
      date: '2026-03-03',
      startTime: '08:00',
      endTime: '10:00',
      startMinutes: 480,
      durationMinutes: 120,
      version: 1,
      number: `50${id}`,
      title: 'Service',
      customerName: null,
      priority: 'medium',
      isClosed: false,
      projectId,
    });
    const board: Board = {
      from: '2026-03-01',
      to: '2026-04-01',
      users: [{ id: 'u1', name: 'Tess Tekniker' }],
      items: [item('1', 'p1'), item('2', null)],
      projects: [{ id: 'p1', number: 1001, title: 'Larm Solrosen' }],
      unscheduled: [],
      unscheduledCount: 0,
      unscheduledCountCapped: false,
      holidays: [],
      today: '2026-03-10',
      version: 1,
      canPlan: true,
    };
    const html = render(
      <BoardGrid
        view={view}
        columns={viewColumns(view)}
        board={board}
        busy={false}
        onChange={() => undefined}
        onOpen={() => undefined}
      />,
    );
    expect(html).toContain('1001 · Larm Solrosen');
    expect(html).toContain('data-testid="row-p1"');
    expect(html).toContain('No project');
    expect(html).toContain('data-testid="row-no-project"');
  });
});
