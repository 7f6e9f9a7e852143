import type { TFunction } from 'i18next';
import { formatDate, formatDateTime } from './format.ts';

/**
 * An action-log entry's data (spec 001, 2.12: "JSON shown as a table") as the rows a reader
 * understands: each field under the label its own screen gives it (a property's "Bedrooms", an
 * account's "Last name"), the log's own keys (accountId, ip, imagesOrder…) under actionLog.data.*,
 * and values as words and dates rather than JSON. The stored key stays available as the row's
 * `key` (shown on hover) for whoever needs the raw name.
 */
export type LogDataRow = { key: string; label: string; value: string };

/** Where each logged entity's field labels are: the same texts its form uses. */
const FIELD_LABELS: Record<string, string> = {
  Account: 'accounts.ui.field',
  Client: 'accounts.ui.field',
  Owner: 'accounts.ui.field',
  Professional: 'accounts.ui.field',
  Source: 'accounts.ui.field',
  Object: 'fields.object',
  Lead: 'fields.lead',
  Deal: 'fields.deal',
  Reservation: 'fields.reservation',
  Transaction: 'fields.transaction',
  Activity: 'activities.field',
  Document: 'documents.ui',
  Viewing: 'viewings.ui',
  ObjectKey: 'objectkeys',
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A local date-time as the server writes it (a moment with a zone is shown as stored). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

function valueText(t: TFunction, v: unknown): string {
  if (v == null || v === '') return '—';
  if (typeof v === 'boolean') return t(v ? 'common.yes' : 'common.no');
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return DATE.test(v) ? formatDate(v) : DATE_TIME.test(v) ? formatDateTime(v) : v;
  if (Array.isArray(v)) return v.every((x) => x == null || typeof x !== 'object') ? v.map((x) => valueText(t, x)).join(', ') : JSON.stringify(v);
  const o = v as Record<string, unknown>;
  // A change recorded as its old and new value.
  if (Object.keys(o).length === 2 && 'from' in o && 'to' in o) return `${valueText(t, o.from)} → ${valueText(t, o.to)}`;
  return JSON.stringify(v);
}

export function logDataRows(t: TFunction, entity: string, data: unknown): LogDataRow[] {
  if (data == null || typeof data !== 'object' || Array.isArray(data)) return [];
  const prefix = FIELD_LABELS[entity];
  return Object.entries(data as Record<string, unknown>).map(([key, v]) => ({
    key,
    label: t(prefix ? [`${prefix}.${key}`, `actionLog.data.${key}`] : [`actionLog.data.${key}`], { defaultValue: key }),
    // A language is stored as its code (el, en-UK, ru): shown by its name.
    value: key === 'language' && typeof v === 'string' ? t(`accounts.ui.language.${v.slice(0, 2)}`, { defaultValue: v }) : valueText(t, v),
  }));
}

/** Data that is not an object of fields (a list, a number, a text) as one line. */
export const logDataText = (t: TFunction, data: unknown): string => (data == null ? '' : valueText(t, data));
