import { useRef } from 'react';

/**
 * The `Idempotency-Key` of a change (the server's plugins/idempotency.ts): a form's Save pressed
 * again after its answer was lost (the connection dropped after the server had stored it) sends the
 * same key and gets the first answer back, instead of a second viewing, key or payment.
 *
 * A key is the form's own random scope with a digest of what is sent: the same content sent again
 * is the same change; content changed meanwhile is another change (a new key). After a save
 * succeeds the scope is renewed, so the same content saved on purpose a second time (a second
 * identical payment) is a change of its own.
 */
export type ChangeKeys = { keyFor: (body: unknown) => string; renew: () => void };

export function useChangeKeys(): ChangeKeys {
  const scope = useRef<string | null>(null);
  scope.current ??= randomScope();
  return useRef({
    keyFor: (body: unknown) => `${scope.current}-${digest(body)}`,
    renew: () => void (scope.current = randomScope()),
  }).current;
}

/** 16 random hex digits (crypto.getRandomValues works on plain http too, unlike randomUUID). */
function randomScope(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A 64-bit FNV-1a digest (two 32-bit halves) of the body's text: a form's fields, a file's name, size and date. */
export function digest(body: unknown): string {
  const text = body instanceof FormData ? formText(body) : JSON.stringify(body ?? null);
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

function formText(form: FormData): string {
  const parts: string[] = [];
  form.forEach((v, k) => parts.push(`${k}=${typeof v === 'string' ? v : `${v.name}:${v.size}:${v.lastModified}`}`));
  return parts.join('\n');
}

/** This page's own scope for the keys of versioned saves. */
const pageScope = randomScope();

/**
 * The key of an auto-saved record's change (`bodyChangeKey`): the body names the record and the
 * version it is based on, so the same body sent again is the same change (a save repeated after
 * its answer was lost is answered with the first answer, not refused as stale), and any later
 * change has another version, so another key.
 */
export const bodyChangeKey = (body: unknown): string => `${pageScope}-${digest(body)}`;
