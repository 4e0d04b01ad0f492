import { data } from 'react-router';
import { guard } from '~/app/lib/guard.server';

// Placeholder while this screen is being built: answers not found.
export const middleware = guard({ permission: 'settings:read' });

export function loader() {
  throw data('not found', { status: 404 });
}

export default function Placeholder() {
  return null;
}
