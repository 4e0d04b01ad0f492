/** What the zone's service-request form and service share (decision 064); no server code here. */

/** The app module that lets customers ask for work (spec section 6, "customer work orders"). */
export const CUSTOMER_WORK_ORDERS = 'customer_workorders';

/** The most photos one request carries. */
export const MAX_REQUEST_PHOTOS = 10;
/** The longest description; the title is its first line, at most REQUEST_TITLE_LENGTH long. */
export const MAX_REQUEST_TEXT = 4000;
export const REQUEST_TITLE_LENGTH = 80;
