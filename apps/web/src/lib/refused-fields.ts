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

/** Splits a save's changes: what is sent, and the messages of the refused fields held back. */
export function holdRefused(refused: Refused, changes: Record<string, unknown>): { send: Record<string, unknown>; held: Record<string, string> } {
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
  for (;;) {
    const { send: body, held } = holdRefused(refused, changes);
    if (!Object.keys(body).length) return { saved: null, held };
    try {
      return { saved: await send(body), held };
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && noteRefused(refused, body, e.fieldErrors)) continue;
      throw e;
    }
  }
}

/** The messages of the fields held back, as their boxes show them. */
export const refusedErrors = (refused: Refused): Record<string, string> => Object.fromEntries([...refused].map(([k, r]) => [k, r.error]));
