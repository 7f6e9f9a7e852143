import type { TFunction } from 'i18next';
import { formatDate } from './format.ts';

/**
 * Whether the agency holds the key by its dates: received, and not given away since (the same day
 * counts as given away, as the property's "has key" does).
 */
export const keyHeld = (k: { received: string | null; givenAway: string | null }) => !!k.received && (!k.givenAway || k.givenAway < k.received);
/** Whether the key is out: given to someone or given away, and not held. */
export const keyOut = (k: { accountId: number | null; received: string | null; givenAway: string | null }) => !keyHeld(k) && (k.accountId != null || !!k.givenAway);

type KeyState = { accountId: number | null; account: string | null; received: string | null; givenAway: string | null; lastLoan: { account: string | null } | null };

/**
 * Where a key is, in a line: "Out with <holder> since <date>", or "In the office since <date> ·
 * last with <holder>" (the last holder from its newest loan when the key's own was cleared).
 */
export function keyStateLine(t: TFunction, k: KeyState): string {
  if (keyOut(k)) {
    const holder = k.account || t('objectkeys.state.noHolder');
    return k.givenAway ? t('objectkeys.state.out', { holder, date: formatDate(k.givenAway) }) : t('objectkeys.state.outNoDate', { holder });
  }
  if (!k.received && !k.lastLoan) return '';
  const last = k.account || k.lastLoan?.account;
  return [k.received ? t('objectkeys.state.in', { date: formatDate(k.received) }) : t('objectkeys.state.inNoDate'), last && t('objectkeys.state.lastWith', { holder: last })]
    .filter(Boolean)
    .join(' · ');
}
