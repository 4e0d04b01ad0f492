import { Link } from 'react-router';

/**
 * The top of a settings page: the way back to Settings, the title, an optional introduction, and
 * for someone who may only read, the words saying so.
 */
export function SettingsPageHeader({
  title,
  intro,
  backLabel,
  readOnlyText,
}: {
  title: string;
  intro?: string;
  backLabel: string;
  /** Shown when set: the page is read-only for this person. */
  readOnlyText?: string | null;
}) {
  return (
    <div>
      <Link to="/settings" className="text-sm text-brand-700 underline">
        ← {backLabel}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{title}</h1>
      {intro ? <p className="mt-1 text-sm text-slate-600">{intro}</p> : null}
      {readOnlyText ? <p className="mt-1 text-sm text-slate-600">{readOnlyText}</p> : null}
    </div>
  );
}
