import { describe, expect, it } from 'vitest';
import { hasDashboardAccess } from './dashboard-access';

describe('[access-levels] hasDashboardAccess (spec section 3)', () => {
  it.each([
    ['no levels', [], false],
    ['levels without configuration', [{}, { configuration: {} }], false],
    ['one level with a dashboard configuration', [{ configuration: {} }, { configuration: { dashboard: {} } }], true],
    ['a filled dashboard configuration', [{ configuration: { dashboard: { cards: ['leadTime'] } } }], true],
    ['a dashboard key that is null', [{ configuration: { dashboard: null } }], false],
    ['a dashboard key that is not an object', [{ configuration: { dashboard: true } }], false],
    ['a dashboard key that is a list', [{ configuration: { dashboard: [] } }], false],
    ['a configuration that is not an object', [{ configuration: 'dashboard' }, { configuration: null }], false],
    ['other configuration only', [{ configuration: { reports: {} } }], false],
  ])('%s → %s', (_name, levels, expected) => {
    expect(hasDashboardAccess(levels)).toBe(expected);
  });
});
