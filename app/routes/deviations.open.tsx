import type { Route } from './+types/deviations.open';
import { guard, requireAuth, runResource } from '~/app/lib/guard.server';
import { hasAccess } from '~/core/permissions/access';
import { DEVIATION_ACCESS, openDeviationsOf } from '~/core/deviations/deviation.service';
import { RELATION_KINDS, type RelationKind } from '~/core/deviations/deviation.schema';

/** A record page's open deviations (?kind=object|customer|work_order|project&id=), for its card. */
export const middleware = guard(DEVIATION_ACCESS.read);

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  const kind = url.searchParams.get('kind') ?? '';
  const id = url.searchParams.get('id') ?? '';
  if (!(RELATION_KINDS as readonly string[]).includes(kind)) return { deviations: [], totalCount: 0, canCreate: false };
  const page = await runResource(context, (ctx) => openDeviationsOf(ctx, kind as RelationKind, id));
  return { ...page, canCreate: hasAccess(auth, DEVIATION_ACCESS.create) };
}
