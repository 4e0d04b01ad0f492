import { redirect } from 'react-router';
import type { Route } from './+types/language';
import { authContext } from '~/app/context';
import { guard, run } from '~/app/lib/guard.server';
import { safeRedirect } from '~/app/lib/safe-redirect';
import { isLang, keyFromLang } from '~/core/i18n/languages';
import { langCookie } from '~/core/http/session-token';
import { PUBLIC } from '~/core/permissions/access';
import { updateUserConf } from '~/core/users/user-conf.service';

// Public: the login page has the switch too. Signed in, the choice is saved on the user.
export const middleware = guard(PUBLIC);

export function loader() {
  throw redirect('/');
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const lang = form.get('lang');
  const back = safeRedirect(form.get('redirectTo'));
  if (!isLang(lang)) return redirect(back);
  if (context.get(authContext)) await run(context, (ctx) => updateUserConf(ctx, { language: keyFromLang(lang) }));
  return redirect(back, { headers: { 'Set-Cookie': langCookie(lang) } });
}
