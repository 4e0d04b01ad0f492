import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { cx } from './class-names';
import { CloseIcon, ErrorIcon, InfoIcon, SuccessIcon, WarningIcon } from './icons';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

/** Spec section 9: error, warning and info notices vanish after 5 s, success after 3 s. */
export const TOAST_DURATION_MS = {
  success: 3_000,
  error: 5_000,
  warning: 5_000,
  info: 5_000,
} as const satisfies Record<ToastKind, number>;

/** How long a notice of this kind stays on screen, in milliseconds. */
export function toastDuration(kind: ToastKind): number {
  return TOAST_DURATION_MS[kind];
}

export interface ToastOptions {
  kind: ToastKind;
  /** Already translated. */
  message: string;
}

export interface QueuedToast extends ToastOptions {
  id: number;
}

/**
 * The notices after one more: never the same notice twice at once (two parts of a page reporting
 * one save said "Saved" twice); the repeated one moves to the end with a fresh timer. At most
 * MAX_VISIBLE, the oldest going first.
 */
export function queueToast(current: QueuedToast[], toast: QueuedToast): QueuedToast[] {
  const others = current.filter((t) => t.kind !== toast.kind || t.message !== toast.message);
  return [...others, toast].slice(-MAX_VISIBLE);
}

export interface ToastApi {
  /** Shows a notice; returns its id. */
  show: (toast: ToastOptions) => number;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** Shows notices from anywhere below a `ToastProvider`. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast() needs a <ToastProvider> above it (app/root.tsx)');
  return api;
}

/** At most this many notices at once; the oldest goes first. */
const MAX_VISIBLE = 5;

/**
 * Holds the notices and renders their live region: along the bottom on phones, top right on wide
 * screens. The region is in the page from the first render, so screen readers announce what is
 * added to it. Pointing at or focusing a notice pauses every timer until the pointer or focus leaves.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('ui');
  const [toasts, setToasts] = useState<QueuedToast[]>([]);
  const [isHovered, setHovered] = useState(false);
  const [isFocused, setFocused] = useState(false);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback((toast: ToastOptions) => {
    const id = nextId.current++;
    setToasts((current) => queueToast(current, { ...toast, id }));
    return id;
  }, []);

  const api = useMemo<ToastApi>(() => ({ show, dismiss }), [show, dismiss]);
  const isPaused = isHovered || isFocused;

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section
        aria-label={t('notifications')}
        className={cx(
          'pointer-events-none fixed inset-x-0 bottom-0 z-[60] p-2',
          'pb-[max(0.5rem,env(safe-area-inset-bottom))]',
          'sm:inset-x-auto sm:top-0 sm:right-0 sm:bottom-auto sm:w-96 sm:p-4',
        )}
        onPointerEnter={() => setHovered(true)}
        onPointerLeave={() => setHovered(false)}
        onFocus={() => setFocused(true)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
        }}
      >
        <div role="status" aria-live="polite" aria-relevant="additions">
          <ol className="flex flex-col gap-2">
            {toasts.map((toast) => (
              <ToastItem key={toast.id} toast={toast} isPaused={isPaused} onDismiss={dismiss} />
            ))}
          </ol>
        </div>
      </section>
    </ToastContext.Provider>
  );
}

const KIND_STYLE = {
  success: { box: 'border-green-700 bg-green-50 text-green-950', icon: <SuccessIcon />, labelKey: 'toastSuccess' },
  error: { box: 'border-red-700 bg-red-50 text-red-950', icon: <ErrorIcon />, labelKey: 'toastError' },
  warning: { box: 'border-amber-600 bg-amber-50 text-amber-950', icon: <WarningIcon />, labelKey: 'toastWarning' },
  info: { box: 'border-blue-700 bg-blue-50 text-blue-950', icon: <InfoIcon />, labelKey: 'toastInfo' },
} as const satisfies Record<ToastKind, { box: string; icon: ReactNode; labelKey: string }>;

function ToastItem({
  toast,
  isPaused,
  onDismiss,
}: {
  toast: QueuedToast;
  isPaused: boolean;
  onDismiss: (id: number) => void;
}) {
  const { t } = useTranslation('ui');
  // Time left on this notice's clock; a pause keeps what is left instead of starting over.
  const remaining = useRef(toastDuration(toast.kind));

  useEffect(() => {
    if (isPaused) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => onDismiss(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt));
    };
  }, [isPaused, onDismiss, toast.id]);

  const style = KIND_STYLE[toast.kind];
  return (
    <li
      className={cx(
        'pointer-events-auto flex items-start gap-2 rounded-lg border-s-4 py-1 ps-3 pe-1 shadow-lg ring-1 ring-black/5',
        style.box,
      )}
    >
      <span className="mt-3 shrink-0">{style.icon}</span>
      <p className="min-w-0 flex-1 self-center py-2 text-sm break-words">
        <span className="sr-only">{t(style.labelKey)}: </span>
        {toast.message}
      </p>
      <Button variant="ghost" size="sm" isIconOnly aria-label={t('close')} onPress={() => onDismiss(toast.id)}>
        <CloseIcon />
      </Button>
    </li>
  );
}
