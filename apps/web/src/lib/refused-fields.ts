import { ApiError } from './api.ts';

/**
 * The fields a record's auto-save had refused (a 400 naming them), each with the value refused and
 * the reason. Until the user changes such a field, later saves leave it out, so one mistyped box
 * does not hold back every other change of the record: the rest is stored, the refused box keeps
 * what was typed and its message, and the save stays "not saved" (so leaving asks first).
 */
export type Refused = Map<string, { value: string; error: string }>;

const wire = (v: unknown) => JSON.stringify(v ?? null);
/** A field error's field: "emails.0" is the e-mails box. */
const fieldOf = (key: string) => key.split('.')[0]!;

/** Some of what the user typed is held back, refused: the save is not complete. */
export class NotSaved extends Error {
  constructor(readonly held: Record<string, string>) {
    super('Some changes were refused and are not saved.');
  }
}

/**
 * Splits a save's changes: what is sent, and the messages of the refused fields held back. With
 * `retryHeld`, a refused field goes along with any other change (it stays on the refused list until
 * the answer): a refusal may depend on another field ("from" over "to"), and the other change may
 * be the one that makes it right. Alone, an unchanged refused value is not sent again.
 */
export function holdRefused(refused: Refused, changes: Record<string, unknown>, retryHeld = false): { send: Record<string, unknown>; held: Record<string, string> } {
  const send: Record<string, unknown> = {};
  const held: Record<string, string> = {};
  for (const [k, v] of Object.entries(changes)) {
    const r = refused.get(k);
    if (r && r.value === wire(v)) held[k] = r.error;
    else {
      refused.delete(k);
      send[k] = v;
    }
  }
  if (retryHeld && Object.keys(send).length && Object.keys(held).length) {
    for (const k of Object.keys(held)) send[k] = changes[k];
    return { send, held: {} };
  }
  return { send, held };
}

/**
 * Records a refusal of `sent` when it names only fields that were sent. Answers whether other
 * fields are left to send again at once.
 */
export function noteRefused(refused: Refused, sent: Record<string, unknown>, errors: Record<string, string>): boolean {
  const byField = new Map<string, string[]>();
  for (const [key, error] of Object.entries(errors)) byField.set(fieldOf(key), [...(byField.get(fieldOf(key)) ?? []), error]);
  if (!byField.size || ![...byField.keys()].every((f) => f in sent)) return false;
  for (const [f, messages] of byField) refused.set(f, { value: wire(sent[f]), error: messages.join(' ') });
  return Object.keys(sent).some((k) => !refused.has(k));
}

/**
 * One auto-save of a record's changes around its refused fields: sends what may be sent, and when
 * the server refuses only some of the fields sent, sends the rest at once. Answers the saved
 * record (null when nothing could be sent) and the messages of the fields held back.
 */
export async function saveAround<R>(refused: Refused, changes: Record<string, unknown>, send: (body: Record<string, unknown>) => Promise<R>): Promise<{ saved: R | null; held: Record<string, string> }> {
  // The first attempt carries the refused fields along with the new changes; if they are refused
  // again, the next attempt leaves them out (so it cannot go round for ever).
  for (let attempt = 0; ; attempt++) {
    const { send: body, held } = holdRefused(refused, changes, attempt === 0);
    if (!Object.keys(body).length) return { saved: null, held };
    try {
      const saved = await send(body);
      // Sent along and stored: no longer refused.
      for (const k of Object.keys(body)) refused.delete(k);
      return { saved, held };
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && noteRefused(refused, body, e.fieldErrors)) continue;
      throw e;
    }
  }
}

/** The messages of the fields held back, as their boxes show them. */
export const refusedErrors = (refused: Refused): Record<string, string> => Object.fromEntries([...refused].map(([k, r]) => [k, r.error]));
