import { expect } from 'vitest';
import { mailboxSettings, type Dovecot } from './dovecot.ts';
import type { Client } from './harness.ts';

/** A mailbox on this Dovecot saved by `as` (an office admin), with `over` changed: its id. */
export async function addMailbox(as: Pick<Client, 'post'>, d: Dovecot, over: Record<string, unknown> = {}): Promise<number> {
  const saved = await as.post('/api/mailboxes/update', mailboxSettings(d, over));
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json().id as number;
}
