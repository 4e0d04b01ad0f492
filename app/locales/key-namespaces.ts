/**
 * The namespaces that `ns:key` keys name (a plugin's link label, `doorautomatics:nav`), for
 * `useTranslation([own, ...namespacesOfKeys(keys)])`: a namespace only named inside a key is not
 * reported by the server's render, so the browser would hydrate without it and show the bare key
 * (issue 28 item 17: "nav" for "Dörrautomatik", React error #418).
 */
export function namespacesOfKeys(keys: readonly string[]): string[] {
  const found = new Set<string>();
  for (const key of keys) {
    const at = key.indexOf(':');
    if (at > 0) found.add(key.slice(0, at));
  }
  return [...found].sort();
}
