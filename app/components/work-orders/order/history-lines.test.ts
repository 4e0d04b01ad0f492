import { describe, expect, it } from 'vitest';
import { historyChanges } from './history-lines';

const t = (key: string) => ({ 'history.yes': 'ja', 'history.no': 'nej' })[key] ?? key;

describe('[work orders] history lines', () => {
  it('reads edits field by field: lists joined, yes/no, empty as a dash, a time row as date person h:mm', () => {
    expect(
      historyChanges(
        {
          changes: [
            { field: 'title', old: 'A', new: 'B' },
            { field: 'tags', old: [], new: ['Larm', 'Kamera'] },
            { field: 'isClosed', old: true, new: false },
            {
              field: 'time',
              old: null,
              new: { date: '2026-11-20', userName: 'Erik Johansson', workMinutes: 150, travelMinutes: 0 },
            },
          ],
        },
        t,
      ),
    ).toEqual([
      { field: 'title', from: 'A', to: 'B' },
      { field: 'tags', from: '—', to: 'Larm, Kamera' },
      { field: 'isClosed', from: 'ja', to: 'nej' },
      { field: 'time', from: '—', to: '2026-11-20 Erik Johansson 2:30' },
    ]);
  });
  it('reads a change of customer or object by number, name or serial, never the internal id', () => {
    expect(
      historyChanges(
        {
          old: { id: '5f0c…', name: 'Brf Solrosen', customerId: '10001' },
          new: { id: '9a1b…', serialCode: 'SN-7' },
        },
        t,
      ),
    ).toEqual([{ field: '', from: '10001 Brf Solrosen', to: 'SN-7' }]);
    expect(historyChanges({ number: 'WO-1' }, t)).toEqual([]);
    expect(historyChanges(null, t)).toEqual([]);
  });
});
