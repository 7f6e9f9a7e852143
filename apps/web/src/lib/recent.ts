import { useEffect } from 'react';
import { createStore } from './store.ts';
import { sessionStore } from './session.ts';
import { ACCOUNT, DEAL, LEAD, OBJECT, RESERVATION, VIEWING, href } from '@crm/contract/resources';

/**
 * The records a user opened last (accounts, properties, leads, deals, viewings, short lets), newest
 * first: the global search offers them while its box is empty, and the browser's tab is named by
 * the record on screen. Kept in this browser only (localStorage), per sign-in, and removed when
 * the user signs out.
 */
export const RECENT_KINDS = ['account', 'object', 'lead', 'deal', 'viewing', 'reservation'] as const;
export type RecentKind = (typeof RECENT_KINDS)[number];
export type RecentEntry = { kind: RecentKind; id: number; label: string };

/** How many are kept and offered. */
export const RECENT_MAX = 8;
/** A label longer than this is cut (a property's title can be long). */
const LABEL_MAX = 140;

/** The title key naming each kind (the global search's badge). */
export const RECENT_KIND_TITLE: Record<RecentKind, string> = {
  account: 'title.account',
  object: 'title.object',
  lead: 'title.lead',
  deal: 'title.deal',
  viewing: 'title.viewing',
  reservation: 'title.reservation',
};

export function recentPath(e: Pick<RecentEntry, 'kind' | 'id'>): string {
  switch (e.kind) {
    case 'account':
      return href(ACCOUNT.screens.view, { id: e.id });
    case 'object':
      return href(OBJECT.screens.view, { id: e.id });
    case 'lead':
      return href(LEAD.screens.view, { id: e.id });
    case 'deal':
      return href(DEAL.screens.view, { id: e.id });
    case 'viewing':
      return href(VIEWING.screens.view, { id: e.id });
    case 'reservation':
      return href(RESERVATION.screens.view, { id: e.id });
  }
}

const keyOf = (username: string | undefined) => (username ? `crm.recent.${username.toLowerCase()}` : null);

function isEntry(x: unknown): x is RecentEntry {
  const e = x as RecentEntry;
  return !!e && RECENT_KINDS.includes(e.kind) && Number.isInteger(e.id) && e.id > 0 && typeof e.label === 'string';
}

function read(username: string | undefined): RecentEntry[] {
  const key = keyOf(username);
  if (!key) return [];
  try {
    const list = JSON.parse(localStorage.getItem(key) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter(isEntry).slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

const recentStore = createStore<RecentEntry[]>(read(sessionStore.get()?.username));
// Another sign-in in this tab, or the list changed in another tab: read it again.
sessionStore.subscribe(() => recentStore.set(read(sessionStore.get()?.username)));
window.addEventListener('storage', (e) => {
  if (e.key && e.key === keyOf(sessionStore.get()?.username)) recentStore.set(read(sessionStore.get()?.username));
});

export const useRecent = () => recentStore.use();

/** Puts a record at the front of the list (once: opening it again moves it, with its newest label). */
export function rememberOpened(entry: RecentEntry) {
  const key = keyOf(sessionStore.get()?.username);
  const label = entry.label.trim().slice(0, LABEL_MAX);
  if (!key || !label) return;
  const current = recentStore.get();
  if (current[0]?.kind === entry.kind && current[0].id === entry.id && current[0].label === label) return;
  const next = [{ kind: entry.kind, id: entry.id, label }, ...current.filter((e) => !(e.kind === entry.kind && e.id === entry.id))].slice(0, RECENT_MAX);
  try {
    localStorage.setItem(key, JSON.stringify(next));
  } catch {
    /* storage full or refused: the list lives for this visit */
  }
  recentStore.set(next);
}

/** Takes a record off the list (it was deleted, or is not there any more). */
export function forgetOpened(kind: RecentKind, id: number) {
  const key = keyOf(sessionStore.get()?.username);
  const current = recentStore.get();
  if (!key || !current.some((e) => e.kind === kind && e.id === id)) return;
  const next = current.filter((e) => !(e.kind === kind && e.id === id));
  try {
    localStorage.setItem(key, JSON.stringify(next));
  } catch {
    /* as above */
  }
  recentStore.set(next);
}

/**
 * The sign-in's name changed (its account was renamed): the list moves to the new name's key, and
 * nothing stays under the old one (sign-out removes only the current key; an orphan would keep
 * client names readable on a shared office computer).
 */
export function renameRecent(from: string | undefined, to: string | undefined) {
  const was = keyOf(from);
  const is = keyOf(to);
  if (!was || !is || was === is) return;
  try {
    const old = localStorage.getItem(was);
    if (old !== null && localStorage.getItem(is) === null) localStorage.setItem(is, old);
  } catch {
    /* storage full or refused: the list starts again */
  }
  localStorage.removeItem(was);
}

/** Removes the signed-in user's list from this browser (signing out). */
export function forgetRecent(username: string | undefined) {
  const key = keyOf(username);
  if (key) localStorage.removeItem(key);
  recentStore.set([]);
}

/** The record on screen, which names the browser's tab. */
const currentRecord = createStore<string | null>(null);
export const useCurrentRecord = () => currentRecord.use();

/**
 * A record's screen says which record it shows, once it has it (`label` empty while loading or
 * creating): the record joins the recently opened, and names the tab while it is on screen. A
 * record found gone (deleted, unknown: `gone`) leaves the list.
 */
export function useRecordOpened(kind: RecentKind, id: number, label: string | null | undefined, gone = false) {
  const text = label?.trim() ?? '';
  useEffect(() => {
    if (!Number.isInteger(id) || id <= 0) return;
    if (gone) {
      forgetOpened(kind, id);
      return;
    }
    if (!text) return;
    rememberOpened({ kind, id, label: text });
    currentRecord.set(text);
    return () => {
      if (currentRecord.get() === text) currentRecord.set(null);
    };
  }, [kind, id, text, gone]);
}
