import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

/** The failed part's own message and retry, in place of the part (the page around it stays). */
function WidgetFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-md bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200"
    >
      <span>{t('errors.widget.body')}</span>
      <Button size="sm" variant="secondary" onPress={onRetry}>
        {t('errors.widget.retry')}
      </Button>
    </div>
  );
}

/**
 * An error boundary around one widget or panel (issue 28 item 10): a part that fails while
 * drawing shows its own error with "Try again" instead of taking the page (and what is typed on
 * it) down to the whole-page error. Retry draws the part afresh.
 */
export class WidgetBoundary extends Component<{ children: ReactNode }, { failed: boolean; attempt: number }> {
  override state = { failed: false, attempt: 0 };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // the browser console is where a developer looks; the person sees the translated notice
    console.error('A widget failed', error, info.componentStack);
  }

  override render() {
    if (this.state.failed)
      return <WidgetFailed onRetry={() => this.setState((s) => ({ failed: false, attempt: s.attempt + 1 }))} />;
    return <ErrorKeyed key={this.state.attempt}>{this.props.children}</ErrorKeyed>;
  }
}

/** Remounts the children on each retry (the key changes), so a retry starts the part afresh. */
function ErrorKeyed({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
