import type { TSessionUser } from '@crm/contract';
import { createStore } from './store.ts';

const KEY = 'crm.session';

function read(): TSessionUser | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as TSessionUser;
    if (!s.token || (s.expiresOn && new Date(s.expiresOn).getTime() < Date.now())) return null;
    return s;
  } catch {
    return null;
  }
}

/** The signed-in user (token, username, userroles, branchId), kept in localStorage. */
export const sessionStore = createStore<TSessionUser | null>(read());

/** True after the server ended the session (a 401), so the sign-in page can say so. */
export const sessionEndedStore = createStore(false);

/**
 * Beside the session in localStorage, a cookie the app itself can remove: the server draws a
 * screen's first paint (decision 054) only while it is there. Every way out of a session removes it
 * here, in the browser, even when the sign-out never reached the server (offline, an error): the
 * next person at a shared computer gets no one's screen drawn.
 */
export const SIGNED_IN_COOKIE = 'crm_signed_in';

export function setSession(s: TSessionUser | null, opts: { ended?: boolean } = {}) {
  sessionEndedStore.set(!s && !!opts.ended);
  if (s) localStorage.setItem(KEY, JSON.stringify(s));
  else localStorage.removeItem(KEY);
  document.cookie = s ? `${SIGNED_IN_COOKIE}=1; path=/; SameSite=Strict` : `${SIGNED_IN_COOKIE}=; path=/; max-age=0; SameSite=Strict`;
  sessionStore.set(s);
}

// Another tab signed in or out: follow it.
window.addEventListener('storage', (e) => {
  if (e.key === KEY) sessionStore.set(read());
});

export const useSession = () => sessionStore.use();
export const isAdmin = (s: TSessionUser | null) => !!s?.userroles.includes('admin');
export const hasBranch = (s: TSessionUser | null) => s?.branchId != null;
/** Admins without a branch: they alone change what grants access (roles, branches, employees' e-mails). */
export const isOfficeAdmin = (s: TSessionUser | null) => isAdmin(s) && !hasBranch(s);
