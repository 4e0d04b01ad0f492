/**
 * Spec section 3: "Dashboard access exists if any of the user's aclIds has dashboard
 * configuration". A level grants it when its configuration holds a `dashboard` object (its
 * content, e.g. which KPI cards to show, is the dashboard's business); null, arrays and other
 * values do not count, so a cleared setting does not open the dashboard by accident.
 */
export function hasDashboardAccess(levels: readonly { configuration?: unknown }[]): boolean {
  return levels.some((level) => {
    const conf = level.configuration;
    if (!conf || typeof conf !== 'object' || Array.isArray(conf)) return false;
    const dashboard = (conf as Record<string, unknown>).dashboard;
    return typeof dashboard === 'object' && dashboard !== null && !Array.isArray(dashboard);
  });
}
