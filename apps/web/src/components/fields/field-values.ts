import type { TFieldType, TSelectOption } from '@crm/contract';
import { joinDateTime, splitDateTime } from '@crm/contract/field-description';
import { parseAmount } from '@crm/contract/typed-number';
import { formatTypedNumber } from '../../lib/typed-number.ts';
import { amountForInput, formatAmount, formatArea, formatDate, formatDateTime, formatDistance, formatMoney, formatMoney2 } from '../../lib/format.ts';
import { currentCulture } from '../../lib/i18n.ts';

/** The editor's working value of each field type (what the inputs hold; a date-time: [date, time]). */
export type Draft = string | number | string[] | null;

const NUMERIC: readonly TFieldType[] = ['number', 'distance', 'distance-km', 'currency', 'area'];
export const isNumericType = (type: TFieldType) => NUMERIC.includes(type);
export const hasOptions = (type: TFieldType) => type === 'select' || type === 'enum' || type === 'flag-enum' || type === 'multi-select';

/** A stored value as the editor's input holds it. */
export function toDraft(type: TFieldType, value: unknown): Draft {
  if (isNumericType(type)) return typeof value === 'number' ? value : value == null || value === '' ? '' : Number(value);
  switch (type) {
    case 'date':
      return value ? String(value).slice(0, 10) : '';
    case 'money':
      // The exact text as typed in the reader's language ("80,50"), never through a float.
      return value == null || value === '' ? '' : amountForInput(String(value), currentCulture());
    case 'date-time': {
      const [date, time] = splitDateTime(value == null ? null : String(value));
      return [date ?? '', time];
    }
    case 'select':
    case 'enum':
    case 'location':
      return value == null || value === '' ? null : String(value);
    case 'flag-enum':
    case 'multi-select':
      return Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? value.split(',').map((s) => s.trim()) : [];
    case 'boolNullable':
      return value === true ? 'true' : value === false ? 'false' : 'null';
    case 'boolean':
      return value === true ? 'true' : 'false';
    default:
      return value == null ? '' : String(value);
  }
}

/** The value sent to the server for an input's content. */
export function toWire(type: TFieldType, draft: Draft, options: TSelectOption[] = []): unknown {
  if (isNumericType(type)) {
    if (draft === '' || draft === null) return null;
    const n = typeof draft === 'number' ? draft : Number(String(draft).replace(/\s/g, '').replace(',', '.'));
    return Number.isFinite(n) ? n : draft;
  }
  switch (type) {
    case 'date':
      return draft ? draft : null;
    case 'money': {
      // Read as every typed number of the app ("1.500" is 1 500 €, "1.500,50" and "1,500.50" are
      // 1 500,50 €) and sent as the exact decimal text ("1500.50"), never through a float. Text that
      // reads as no amount goes as typed: the server's answer says what is wrong with it.
      const s = String(draft ?? '').trim();
      if (!s) return null;
      const r = parseAmount(s);
      return r.ok ? r.value : s;
    }
    case 'date-time': {
      const [date, time] = Array.isArray(draft) ? draft : [];
      return joinDateTime(date, time) || null;
    }
    case 'select':
    case 'enum': {
      if (draft == null || draft === '') return null;
      return options.find((o) => String(o.value) === draft)?.value ?? draft;
    }
    case 'location':
      return draft == null || draft === '' ? null : Number(draft);
    case 'flag-enum':
      return Array.isArray(draft) ? draft : [];
    case 'multi-select':
      // The list's values in the list's order (numbers where the list has numbers).
      return Array.isArray(draft)
        ? [...draft]
            .map((d) => options.find((o) => String(o.value) === d)?.value ?? (Number.isFinite(Number(d)) ? Number(d) : d))
            .sort((a, b) => options.findIndex((o) => o.value === a) - options.findIndex((o) => o.value === b))
        : [];
    case 'boolNullable':
      return draft === 'true' ? true : draft === 'false' ? false : null;
    case 'boolean':
      return draft === 'true';
    case 'textarea': {
      const s = String(draft ?? '').replace(/\r\n/g, '\n').trim();
      return s || null;
    }
    default: {
      const s = String(draft ?? '').trim();
      return s || null;
    }
  }
}

/** Whether two wire values mean the same (flag sets regardless of order). */
export function sameWire(type: TFieldType, a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => ((type === 'flag-enum' || type === 'multi-select') && Array.isArray(v) ? [...v].map(String).sort() : v ?? null);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

type T = (key: string, o?: Record<string, unknown>) => string;

/** A value as shown on a record's page; empty string when not set. */
export function formatFieldValue(type: TFieldType, value: unknown, t: T, options?: TSelectOption[], valueText?: string): string {
  if (value == null || value === '' || (Array.isArray(value) && value.length === 0)) return '';
  const num = typeof value === 'number' ? value : Number(value);
  switch (type) {
    case 'currency':
      return Number.isInteger(num) ? formatMoney(num) : formatMoney2(num);
    case 'money':
      return formatAmount(String(value));
    case 'date-time':
      return formatDateTime(String(value));
    case 'distance':
      return formatDistance(num);
    case 'distance-km':
      return formatDistance(num * 1000);
    case 'area':
      return formatArea(num);
    case 'number':
      // As the agency writes numbers whatever the browser's own locale: comma decimals, and space
      // thousands from five digits (a year built stays 1995).
      return formatTypedNumber(num, Math.abs(num) >= 10000);
    case 'date':
      return formatDate(String(value));
    case 'boolNullable':
    case 'boolean':
      return value === true ? t('common.yes') : value === false ? t('common.no') : '';
    case 'select':
    case 'enum':
    case 'location':
      return valueText ?? options?.find((o) => String(o.value) === String(value))?.text ?? String(value);
    case 'flag-enum':
    case 'multi-select': {
      const set = toDraft(type, value) as string[];
      if (valueText) return valueText;
      return set.map((v) => options?.find((o) => String(o.value) === v)?.text ?? v).join(', ');
    }
    default:
      return String(value);
  }
}
