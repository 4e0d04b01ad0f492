import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushLoadTimes, rememberLoadTime } from './use-report-load-times';

/** What the pages send of their load times (issue 36 item 6): the call's {name, timeMs}, as beacons. */
describe('the load-time beacons', () => {
  const sent: unknown[] = [];
  const beacon = vi.fn((url: string, body: Blob) => {
    sent.push({ url, type: body.type, body });
    return true;
  });
  vi.stubGlobal('navigator', { sendBeacon: beacon });
  afterEach(() => {
    flushLoadTimes();
    sent.length = 0;
    beacon.mockClear();
  });

  const bodies = async () =>
    Promise.all(
      (sent as { url: string; type: string; body: Blob }[]).map(async (s) => ({
        url: s.url,
        type: s.type,
        data: JSON.parse(await s.body.text()),
      })),
    );

  it('sends nothing until flushed, then one beacon a page, its route id as the name and whole milliseconds', async () => {
    rememberLoadTime('routes/work-orders.$id', 412.6);
    rememberLoadTime('routes/dashboard', 95);
    expect(beacon).not.toHaveBeenCalled();
    flushLoadTimes();
    expect(await bodies()).toEqual([
      { url: '/api/instance/m', type: 'application/json', data: { name: 'routes/work-orders.$id', timeMs: 413 } },
      { url: '/api/instance/m', type: 'application/json', data: { name: 'routes/dashboard', timeMs: 95 } },
    ]);
    flushLoadTimes();
    expect(beacon).toHaveBeenCalledTimes(2);
  });

  it('fits a name to the call’s rule and drops what the call would refuse', async () => {
    rememberLoadTime('routes/a page?x=1', 10);
    rememberLoadTime('routes/slow', 600_001);
    rememberLoadTime('routes/negative', -1);
    rememberLoadTime('routes/nan', Number.NaN);
    flushLoadTimes();
    expect((await bodies()).map((b) => b.data)).toEqual([{ name: 'routes/a_page_x_1', timeMs: 10 }]);
  });

  it('keeps the last 30 of a long day, and stops when the browser refuses more beacons', async () => {
    for (let i = 0; i < 40; i++) rememberLoadTime(`routes/p${i}`, i);
    beacon.mockImplementationOnce(() => false);
    flushLoadTimes();
    expect(beacon).toHaveBeenCalledTimes(1);
    beacon.mockClear();
    flushLoadTimes();
    expect(beacon).toHaveBeenCalledTimes(29);
    const names = (await bodies()).map((b) => b.data.name);
    expect(names[0]).toBe('routes/p11'); // p0–p9 gave way, p10 was the beacon refused
    expect(names.at(-1)).toBe('routes/p39');
  });
});
