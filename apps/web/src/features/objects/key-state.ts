import type { TFunction } from 'i18next';
import type { TObjectKey } from '@crm/contract';
import { formatDate } from '../../lib/format.ts';
import { keyOut } from './api/object-keys.ts';

type KeyState = Pick<TObjectKey, 'accountId' | 'account' | 'received' | 'givenAway'> & { lastLoan: { account: string | null } | null };

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

