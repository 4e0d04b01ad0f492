import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  route('login', 'routes/login.tsx'),
  route('login/mfa', 'routes/login.mfa.tsx'),
  route('welcome', 'routes/welcome.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('auth/:provider/start', 'routes/auth.oidc.start.tsx'),
  route('auth/:provider/callback', 'routes/auth.oidc.callback.tsx'),
  route('microsoft/success', 'routes/oidc-success.tsx', { id: 'microsoft-success' }),
  route('google/success', 'routes/oidc-success.tsx', { id: 'google-success' }),
  route('language', 'routes/language.tsx'),
  layout('routes/app-layout.tsx', [
    index('routes/home.tsx'),
    route('profile', 'routes/profile.tsx'),
    route('settings', 'routes/settings.tsx'),
    route('settings/users', 'routes/settings.users.tsx'),
    route('settings/users/new', 'routes/settings.users.new.tsx'),
    route('settings/users/:id', 'routes/settings.user.tsx'),
    route('settings/access-levels', 'routes/settings.access-levels.tsx'),
    route('settings/access-levels/:id', 'routes/settings.access-level.tsx'),
    route('settings/modules', 'routes/settings.modules.tsx'),
    route('settings/sign-in', 'routes/settings.sign-in.tsx'),
    // Signed out, every other path leads to the login page; signed in, to the not-found page.
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
