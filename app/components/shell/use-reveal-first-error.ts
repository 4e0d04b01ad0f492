import { useEffect, useRef } from 'react';
import { useFetchers, useNavigation } from 'react-router';

/**
 * After a form is sent and answered, the first field marked invalid is brought into view and
 * focused, so a refusal is never out of sight below or above the button that sent it. Only after
 * a submission (not a page or data load), and only when a field is marked.
 */
export function useRevealFirstError() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const submitting = navigation.state === 'submitting' || fetchers.some((f) => f.state === 'submitting');
  const busy = submitting || navigation.state !== 'idle' || fetchers.some((f) => f.state !== 'idle');
  const sent = useRef(false);
  useEffect(() => {
    if (submitting) sent.current = true;
    if (busy || !sent.current) return;
    sent.current = false;
    const frame = requestAnimationFrame(() => {
      const field = document.querySelector<HTMLElement>('main [aria-invalid="true"]');
      if (!field) return;
      const box = field.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) field.scrollIntoView({ block: 'center' });
      if (!field.contains(document.activeElement)) field.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [submitting, busy]);
}
