import type { ReactNode } from 'react';

/** The signed-out screens' card: login, registration, recovery and the one-time welcome link. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
        {children}
      </div>
    </main>
  );
}

const NOTICE_CLASS = {
  error: 'bg-red-50 text-red-800',
  success: 'bg-green-50 text-green-800',
  info: 'bg-slate-100 text-slate-700',
} as const;

/** A message above the form: errors are alerts (read out at once), the rest polite status. */
export function AuthNotice({ kind, children }: { kind: keyof typeof NOTICE_CLASS; children: ReactNode }) {
  return (
    <p role={kind === 'error' ? 'alert' : 'status'} className={`mt-4 rounded-md p-3 text-sm ${NOTICE_CLASS[kind]}`}>
      {children}
    </p>
  );
}

/** A plain link between the signed-out screens (works without JavaScript). */
export function AuthLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a className="inline-block min-h-10 py-2 text-sm text-brand-700 underline underline-offset-2" href={href}>
      {children}
    </a>
  );
}
