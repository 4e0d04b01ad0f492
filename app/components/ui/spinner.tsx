import { ProgressBar } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';

export interface SpinnerProps {
  /** Accessible name; "Loading…" unless told. */
  label?: string;
  className?: string;
}

/** An indeterminate progress indicator (`role="progressbar"`), e.g. inside a pending button. */
export function Spinner({ label, className }: SpinnerProps) {
  const { t } = useTranslation('ui');
  return (
    <ProgressBar isIndeterminate aria-label={label ?? t('loading')} className={cx('inline-flex', className)}>
      <svg
        viewBox="0 0 16 16"
        width="16"
        height="16"
        aria-hidden="true"
        className="animate-spin motion-reduce:animate-none"
      >
        <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="2" />
        <path d="M14 8a6 6 0 0 0-6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </ProgressBar>
  );
}
