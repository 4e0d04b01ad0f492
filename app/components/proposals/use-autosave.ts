import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useFetcher } from 'react-router';
import { useToast } from '~/app/components/ui';
import type { ProposalRow } from '~/core/proposals/proposal.service';

/** Spec section 9: the proposal screen saves 2,500 ms after the last change (sales orders alike). */
export const AUTOSAVE_MS = 2_500;

export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'conflict' | 'error';

/** What a screen's action answers to `{intent: 'save', [key]: draft}`. */
export type SaveAnswer<K extends string, T> =
  | ({ ok: true; intent: 'save' } & { [P in K]: T })
  | { ok?: undefined; intent: string; code: string; fields?: Record<string, string[]> };

interface Versioned {
  /** Empty for a record not yet created: its first save creates it (and answers its id). */
  id: string;
  version: number;
  rows?: ProposalRow[];
}

/**
 * The history state of a navigation that shows the same record under a new address (a new
 * record's first save moves `/proposals/new` to its id): the leave guard lets it pass and the page
 * keeps the screen mounted, so nothing typed meanwhile is lost.
 */
export interface SameRecordState {
  sameRecord: true;
}
export const isSameRecord = (state: unknown) => (state as Partial<SameRecordState> | null)?.sameRecord === true;

/**
 * A record edited on screen and saved by itself AUTOSAVE_MS after the last change: the save names
 * the version it edited, so a save refused because someone else saved first (`conflictCode`)
 * becomes the 'conflict' state instead of overwriting their work. Typing while a save is under way
 * keeps the typed text (only the new version is taken) and saves again. Rows keep their on-screen
 * `key` while their ids become the server's, so a row's picker stays put.
 *
 * Nothing typed is lost by leaving (issue 28 item 9): a link or back button while a change waits
 * is held until the change is saved (at once, not after the timer), then followed; a save that is
 * refused keeps the person on the page with the error, and `leave` then lets them go anyway.
 * Closing or reloading the tab with a change not yet saved starts the save and asks the browser's
 * question first.
 */
export function useAutosave<K extends string, T extends Versioned>(opts: {
  initial: T;
  /** The body's key of the record (`proposal`, `salesOrder`) in the save and its answer. */
  recordKey: K;
  conflictCode: string;
}) {
  const { t: tc } = useTranslation('common');
  const toast = useToast();
  const saver = useFetcher();
  const [draft, setDraftState] = useState<T>(opts.initial);
  const [state, setState] = useState<SaveState>('idle');
  const [fields, setFields] = useState<Record<string, string[]>>({});
  // The record as it is now: a save sends this at the moment it leaves, never a copy taken when
  // the change was made (that copy would name a version an earlier save has since replaced).
  const latest = useRef<T>(opts.initial);
  const revision = useRef(0);
  const sentRevision = useRef(0);
  const inFlight = useRef(false);
  const queued = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { recordKey, conflictCode } = opts;

  const setDraft = useCallback((next: T | ((d: T) => T)) => {
    latest.current = typeof next === 'function' ? (next as (d: T) => T)(latest.current) : next;
    setDraftState(latest.current);
  }, []);

  const send = useCallback(() => {
    clearTimeout(timer.current);
    // one save at a time: a second one would carry the version the first is about to replace
    if (inFlight.current) {
      queued.current = true;
      return;
    }
    inFlight.current = true;
    queued.current = false;
    sentRevision.current = revision.current;
    setState('saving');
    void saver.submit({ intent: 'save', [recordKey]: latest.current } as never, {
      method: 'post',
      encType: 'application/json',
    });
  }, [saver, recordKey]);

  const change = useCallback(
    (patch: Partial<T>) => {
      revision.current++;
      setDraft((d) => ({ ...d, ...patch }));
      clearTimeout(timer.current);
      timer.current = setTimeout(send, AUTOSAVE_MS);
      setState('pending');
    },
    [send, setDraft],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  const unsaved = state === 'pending' || state === 'saving' || state === 'error' || state === 'conflict';
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved && currentLocation.pathname !== nextLocation.pathname && !isSameRecord(nextLocation.state),
  );
  const [leaveRefused, setLeaveRefused] = useState(false);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (state === 'pending') send();
    else if (state === 'saved' || state === 'idle') blocker.proceed();
    else if (state === 'error' || state === 'conflict') setLeaveRefused(true);
  }, [blocker, state, send]);

  useEffect(() => {
    if (!unsaved) return;
    const ask = (e: BeforeUnloadEvent) => {
      if (!inFlight.current && state === 'pending') send();
      e.preventDefault();
      // older Chromium asks only when returnValue is set
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsaved, state, send]);

  useEffect(() => {
    const r = saver.data as SaveAnswer<K, T> | undefined;
    if (saver.state !== 'idle' || !r || !inFlight.current) return;
    inFlight.current = false;
    if (r.ok && r.intent === 'save') {
      const saved = (r as { [P in K]: T })[recordKey];
      setFields({});
      if (revision.current === sentRevision.current) {
        setDraft((d) => ({
          ...saved,
          rows: saved.rows?.map((row, i) => ({ ...row, key: d.rows?.[i]?.key ?? d.rows?.[i]?.id ?? row.id })),
        }));
        setState('saved');
      } else {
        // typed while saving: keep the text, take the new version (and a new record's id), save
        // again (now if the timer already ran out, else when it does)
        setDraft((d) => ({ ...d, id: saved.id, version: saved.version }));
        setState('pending');
        if (queued.current) send();
      }
    } else if (!r.ok && r.code === conflictCode) setState('conflict');
    else if (!r.ok) {
      setFields(r.fields ?? {});
      setState('error');
      toast.show({ kind: 'error', message: tc(r.code, { defaultValue: tc('FAILED_TO_SAVE') }) });
    }
    // the answer is read once per completed save
  }, [saver.state, saver.data, tc, toast, recordKey, conflictCode, setDraft, send]);

  return {
    draft,
    /** Replaces the record (an action's answer) without saving it. */
    setDraft,
    /** Applies a change and saves AUTOSAVE_MS after the last one (the caller refuses it when read-only). */
    change,
    state,
    fields,
    /** Whether a save is waiting or under way (accepting and closing wait for it). */
    saving: state === 'saving' || state === 'pending',
    /** Whether a navigation away is held for (or follows) a save: the screen then stays where it is. */
    leaving: blocker.state !== 'unblocked',
    /** A navigation held because its save was refused: `leave` follows it without the change, `stay` drops it. */
    leaveRefused,
    leave: () => {
      setLeaveRefused(false);
      if (blocker.state === 'blocked') blocker.proceed();
    },
    stay: () => {
      setLeaveRefused(false);
      if (blocker.state === 'blocked') blocker.reset();
    },
  };
}
