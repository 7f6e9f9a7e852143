import i18n from 'i18next';
import { ApiError } from './api.ts';
import { showBanner } from './banner.ts';

/**
 * The error catalogue of the spec, in one place: how a failed call is shown to the user.
 * - 401: the api client already cleared the session and went to /login.
 * - 400: a UserManager list (joined by line breaks) or the detail text, as an error.
 * - 403 and 500 whose title is "Access denied": a warning; other 500s: the title, as an error.
 * - 409: a warning that someone else changed the record (the screen reloads it).
 * - 429: a warning: the server is busy or the user went too fast, and trying again later works.
 * - anything else, including a lost connection: an error banner.
 */
export function describeError(err: unknown): { type: 'warning' | 'danger'; message: string; details?: string } {
  const t = i18n.t.bind(i18n);
  if (err instanceof ApiError) {
    const p = err.problem;
    if (err.status === 0) return { type: 'danger', message: t('errors.network') };
    if (err.status === 400) {
      const um = p.UserManager;
      if (Array.isArray(um) && um.length) {
        return { type: 'danger', message: um.map((e) => (typeof e === 'string' ? e : ((e as { description?: string }).description ?? JSON.stringify(e)))).join('\n') };
      }
      return { type: 'danger', message: p.detail || p.title };
    }
    if (err.status === 403 || p.code === 'errors.accessDenied' || p.title === 'Access denied') {
      return { type: 'warning', message: p.title || t('errors.accessDenied') };
    }
    if (err.status === 409) return { type: 'warning', message: p.title || t('errors.conflict') };
    if (err.status === 429) return { type: 'warning', message: p.title || t('errors.tooManyRequests') };
    if (err.status >= 500) return { type: 'danger', message: p.title || t('errors.internal') };
    return { type: 'danger', message: p.title || t('errors.badRequest'), details: p.detail };
  }
  if (err instanceof Error) return { type: 'danger', message: err.message };
  return { type: 'danger', message: String(err) };
}

/** Shows a failed call in the page banner (401 is handled by the api client). */
export function reportError(err: unknown) {
  if (err instanceof ApiError && err.status === 401) return;
  if ((err as Error)?.name === 'AbortError') return;
  const d = describeError(err);
  showBanner(d.type, d.message, { details: d.details });
}

/** Why setting a password failed, as the spec words it: an error array's descriptions, an errors map's values, the raw text, or the generic message. */
export function describeSetPasswordError(e: unknown, generic: string): string {
  if (e instanceof ApiError) {
    const p = e.problem as typeof e.problem & { UserManager?: unknown };
    if (Array.isArray(p.UserManager) && p.UserManager.length)
      return p.UserManager.map((x) => (typeof x === 'string' ? x : ((x as { description?: string }).description ?? ''))).join('\n');
    const values = Object.values(p.errors ?? {}).flat();
    if (values.length) return values.join('\n');
    return p.detail || p.title || generic;
  }
  return generic;
}
