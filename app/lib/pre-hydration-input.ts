/**
 * What a person typed before the page finished loading must not vanish: react-aria fields are
 * controlled, so hydration resets them to their initial value. We note typed values before
 * hydration and put them back afterwards through the native setter plus input events, which
 * React sees as ordinary typing.
 */
let typed: { el: HTMLInputElement | HTMLTextAreaElement; value: string }[] = [];

export function snapshotTypedInput(): void {
  typed = [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[name], textarea[name]')]
    .filter((el) => el.type !== 'hidden' && el.value !== el.defaultValue)
    .map((el) => ({ el, value: el.value }));
}

export function restoreTypedInput(): void {
  for (const { el, value } of typed) {
    if (!el.isConnected) continue;
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const set = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    // React fires onChange only when the DOM differs from the value it last saw, which may be
    // either the typed text or the empty initial value: step through both.
    for (const v of ['', value]) {
      set?.call(el, v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }
  typed = [];
}
