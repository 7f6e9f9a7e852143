/**
 * What index.html's inline script started before any module loaded: the language cookie as read,
 * and the two requests the first screen waits for (texts and /api/config). Each request is taken
 * once; a later start of the same (a language switch, a second call) asks again.
 */
type Boot = { language?: string; texts?: Promise<Response>; config?: Promise<Response> };

const boot: Boot = ((window as unknown as { __crmBoot?: Boot }).__crmBoot ?? {}) as Boot;

/** The language cookie as the page found it when it opened (undefined when the inline script did not run). */
export const bootLanguage = (): string | undefined => boot.language;

/** The request started for `key`, handed over once. */
export function takeBootRequest(key: 'texts' | 'config'): Promise<Response> | undefined {
  const p = boot[key];
  boot[key] = undefined;
  return p;
}
