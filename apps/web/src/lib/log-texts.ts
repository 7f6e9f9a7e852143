import { DEAL_OPENED_LOG_MESSAGE, LOG_MESSAGES, VIEWING_ARRANGED_LOG_MESSAGE, WON_LOG_MESSAGE } from '@crm/contract/office-constants';
import type { TFunction } from 'i18next';
import { formatDate, formatDateTime, formatMoney2 } from './format.ts';
import { logDataRows, logFieldLabel } from './log-data.ts';
import { ACCOUNT, ALERT, DEAL, DOCUMENT, LEAD, OBJECT, OBJECT_KEY, RESERVATION, VIEWING, href } from '@crm/contract/resources';

/**
 * How an action-log entry reads, on the action log screen and the home page's recent changes alike:
 * its action and entity in the reader's language (actionLog.action.*, actionLog.entity.*; an
 * unknown one as stored), and its message. The server writes a few messages of its own in
 * English; those are translated, a lead won by a closed deal names the deal in the reader's words, a transaction's "expense 125.50" reads as the money it is, and
 * anything else (a document's name, a contact's) is shown as written.
 */
export const logActionText = (t: TFunction, action: string) => t(`actionLog.action.${action}`, { defaultValue: action });
export const logEntityText = (t: TFunction, entity: string) => t(`actionLog.entity.${entity}`, { defaultValue: entity });

/** The messages the server itself writes (the contract's LOG_MESSAGE), each with its actionLog.message.* text. */
const SYSTEM_MESSAGES = new Set(LOG_MESSAGES);

export function logMessageText(t: TFunction, entity: string, message: string | null, data?: unknown): string {
  if (!message) return '';
  // A deleted alert the system made: its text in the reader's language (the message is the English one).
  const alert = entity === 'Alert' ? alertText(data) : null;
  if (alert) {
    // A failed job by the name the Jobs page gives it, as the alert itself reads.
    const job = (alert.messageKey === 'alerts.msg.jobFailed' || alert.messageKey === 'alerts.msg.jobFailedExplained') && typeof alert.params.name === 'string' ? t(`jobs.name.${alert.params.name}`, { defaultValue: alert.params.name }) : undefined;
    // Its days are kept as dd/mm/yyyy, a to-do's due time as "dd/mm/yyyy, HH:MM" (as the server words
    // alerts): as the reader writes them (10.12.2026 and 10.12.2026, 14:15 in Russian).
    const params = Object.fromEntries(Object.entries(alert.params).map(([k, v]) => [k, typeof v === 'string' ? alertDate(v) : v]));
    return t(alert.messageKey, { ...params, ...(job ? { name: job } : {}), defaultValue: message });
  }
  if (SYSTEM_MESSAGES.has(message)) return t(`actionLog.message.${message}`);
  const money = entity === 'Transaction' ? /^(income|expense) (-?\d+(?:\.\d+)?)$/.exec(message) : null;
  if (money) return t(`actionLog.message.${money[1]}`, { amount: formatMoney2(Number(money[2])) });
  const won = entity === 'Lead' ? WON_LOG_MESSAGE.exec(message) : null;
  if (won) return t('actionLog.message.won', { deal: won[1] });
  // A lead moved on by a viewing arranged or a deal made for it.
  const viewing = entity === 'Lead' ? VIEWING_ARRANGED_LOG_MESSAGE.exec(message) : null;
  if (viewing) return t('actionLog.message.viewingArranged', { viewing: viewing[1] });
  const deal = entity === 'Lead' ? DEAL_OPENED_LOG_MESSAGE.exec(message) : null;
  if (deal) return t('actionLog.message.dealOpened', { deal: deal[1] });
  // A booking is logged by its client and check-in day ("Schmidt Hans 2026-12-10"): the day as the reader writes it.
  const booking = entity === 'Reservation' ? /^(.*) (\d{4}-\d{2}-\d{2})$/.exec(message) : null;
  if (booking) return `${booking[1]} ${formatDate(booking[2]!)}`;
  // A field edited on its own (accounts and properties have the single-field editor) is logged by
  // its name ("salePrice"): shown by its label. Only where the entry's data names that field, or,
  // without the data (the home page), for those two kinds of record: an activity "done" or a
  // document called "new" are words, not fields.
  const field = data && typeof data === 'object' ? (data as { field?: unknown }).field : undefined;
  if ((entity === 'Account' || entity === 'Object') && /^[a-z][A-Za-z0-9]*$/.test(message) && (data === undefined || field === message)) return logFieldLabel(t, entity, message);
  return message;
}

/**
 * An entry in one line (the home page's recent changes): its message, else what it changed, by the
 * fields' labels ("City, Notes"; the first three, then "…"), so an edit of a record is not a blank.
 */
export function logSummaryText(t: TFunction, entity: string, message: string | null, data?: unknown): string {
  const text = logMessageText(t, entity, message, data);
  if (text) return text;
  const labels = [...new Set(logDataRows(t, entity, data).map((r) => r.label).filter(Boolean))];
  return labels.length > 3 ? `${labels.slice(0, 3).join(', ')}…` : labels.join(', ');
}

/** A day or a day and time an alert keeps (dd/mm/yyyy[, HH:MM]) as the reader writes it; any other value as it is. */
function alertDate(v: string): string {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})(?:, (\d{2}:\d{2}))?$/.exec(v);
  if (!m) return v;
  const day = `${m[3]}-${m[2]}-${m[1]}`;
  return m[4] ? formatDateTime(`${day}T${m[4]}:00`) : formatDate(day);
}

/** The text key and values an alert's deletion logged (see the server's deleteAlert). */
export function alertText(data: unknown): { messageKey: string; params: Record<string, unknown> } | null {
  if (!data || typeof data !== 'object') return null;
  const { messageKey, params } = data as { messageKey?: unknown; params?: unknown };
  if (typeof messageKey !== 'string' || !messageKey.startsWith('alerts.') && !messageKey.startsWith('publishing.')) return null;
  return { messageKey, params: params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {} };
}

/** Where the record an entry is about opens (nothing for a deletion, or for what has no screen of its own). */
const RECORD_PATH: Record<string, (id: number) => string> = {
  Account: (id) => href(ACCOUNT.screens.view, { id }),
  Object: (id) => href(OBJECT.screens.view, { id }),
  Lead: (id) => href(LEAD.screens.view, { id }),
  Viewing: (id) => href(VIEWING.screens.view, { id }),
  Document: (id) => href(DOCUMENT.screens.view, { id }),
  ObjectKey: (id) => href(OBJECT_KEY.screens.view, { id }),
  Deal: (id) => href(DEAL.screens.view, { id }),
  Reservation: (id) => href(RESERVATION.screens.view, { id }),
  Alert: (id) => href(ALERT.screens.view, { id }),
};
export const logRecordPath = (action: string, entity: string, id: number | null): string | undefined =>
  id != null && action !== 'Delete' ? RECORD_PATH[entity]?.(id) : undefined;

