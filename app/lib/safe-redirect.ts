/** Only same-site paths: an open redirect after sign-in would be a phishing tool. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback;
  return to;
}

/**
 * Where a fresh sign-in goes: the page asked for, or the start page (`/?start=1` lets the start
 * page send a person whose start page is the dashboard there, spec section 2).
 */
export function afterSignIn(to: FormDataEntryValue | string | null | undefined): string {
  const target = safeRedirect(to);
  return target === '/' ? START_PAGE : target;
}

/** The address that resolves to the person's start page. */
export const START_PAGE = '/?start=1';
