import { data } from 'react-router';
import { guard } from '~/app/lib/guard.server';
import { SIGNED_IN } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

export const middleware = guard(SIGNED_IN);

/** Any path no route claims: the root error boundary renders the not-found page with a 404. */
export function loader() {
  throw data('not found', { status: 404 });
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('errors.notFound.title');

export default function NotFound() {
  return null;
}
