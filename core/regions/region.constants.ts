/**
 * The value of a list's region filter that means every region (decision 067), so no region may be
 * called that. Apart from the service so that the browser's filters can use it.
 */
export const ALL_REGIONS = 'all';
