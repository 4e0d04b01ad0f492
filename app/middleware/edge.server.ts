import { data, type MiddlewareFunction } from 'react-router';
import { INVALID_CHARACTER, NUL, nulPath } from '~/core/http/edge';

/**
 * A page's form post holding a NUL character in a field is refused with 400 and the field named,
 * before the action runs (PostgreSQL refuses NUL in text; issue 11). Files are not text and pass.
 */
export const formEdgeMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (request.method === 'GET' || request.method === 'HEAD') return next();
  const type = request.headers.get('content-type') ?? '';
  let field: string | null = null;
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
    const form = await request.clone().formData();
    for (const [k, v] of form)
      if (k.includes(NUL) || (typeof v === 'string' && v.includes(NUL))) {
        field = k.replaceAll(NUL, '\\0');
        break;
      }
  } else if (type.startsWith('application/json')) {
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => null);
    field = nulPath(body);
  }
  if (field !== null)
    throw data({ code: 'VALIDATION_FAILED', fields: { [field]: [INVALID_CHARACTER] } }, { status: 400 });
  return next();
};
