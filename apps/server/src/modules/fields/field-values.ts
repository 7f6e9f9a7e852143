import { MAX_AMOUNT_NUMBER, parseAmount, type TSelectOption } from '@crm/contract';
import { fromLocalDateTime } from '../../lib/dates.ts';
import { fieldError } from '../../lib/errors.ts';
import type { FieldContext, PatchableField } from './field-registry.ts';

type Row = Record<string, unknown>;

/** Defaults of each numeric type: limits and decimals. */
const NUMERIC: Record<string, { min: number; max: number; decimals: number }> = {
  // Six decimals: a map point to a tenth of a metre (a click on the map has more; four moved it by metres).
  number: { min: -1e12, max: 1e12, decimals: 6 },
  distance: { min: 0, max: 1e7, decimals: 0 },
  'distance-km': { min: 0, max: 1e5, decimals: 1 },
  // numeric(14,2), as the whole-record saves limit it (1e12 itself does not fit: it was a 500).
  currency: { min: 0, max: MAX_AMOUNT_NUMBER, decimals: 2 },
  area: { min: 0, max: 1e9, decimals: 2 },
};
/** An integer column's range. */
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

const round = (n: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
};

const isRealDate = (s: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  // setUTCFullYear, not Date.UTC: that reads the years 0-99 as 1900-1999 (the whole-record saves take 0001-9999).
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number(m[1]) >= 1 && d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
};

const sameOption = (o: TSelectOption, v: unknown) => String(o.value) === String(v);

/**
 * Checks a patched value against its field and returns it in stored form (texts trimmed, empty
 * as null, numbers rounded). A value of the wrong kind is refused with a translated field error.
 */
export async function normalizeValue(field: string, def: PatchableField, raw: unknown, ctx: FieldContext, row: Row): Promise<unknown> {
  const required = () => fieldError(field, 'validation.required');
  const wrongType = () => fieldError(field, 'validation.invalidType');
  const empty = raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '');

  switch (def.type) {
    case 'text':
    case 'textarea': {
      if (raw !== null && typeof raw !== 'string') throw wrongType();
      const v = raw === null ? null : def.type === 'text' ? raw.trim().replace(/\s+/g, ' ') : raw.replace(/\r\n/g, '\n').trim();
      if (!v) {
        if (def.required) throw required();
        return null;
      }
      const max = def.max ?? (def.type === 'text' ? 200 : 20000);
      if (v.length > max) throw fieldError(field, 'validation.tooLong', { max });
      const problem = def.check?.(v, row);
      if (problem) throw fieldError(field, problem);
      return v;
    }
    case 'number':
    case 'distance':
    case 'distance-km':
    case 'currency':
    case 'area': {
      if (raw === null) {
        if (def.required) throw required();
        return null;
      }
      if (typeof raw !== 'number' || !Number.isFinite(raw)) throw wrongType();
      const lim = NUMERIC[def.type]!;
      const whole = def.integer || lim.decimals === 0;
      const min = def.min ?? (whole ? Math.max(lim.min, INT_MIN) : lim.min);
      const max = def.max ?? (whole ? Math.min(lim.max, INT_MAX) : lim.max);
      // A distance is stored in whole metres, and the whole-record save refuses 150.5: so does this.
      if (whole && !Number.isInteger(raw)) throw fieldError(field, 'fields.wholeNumber');
      // An amount keeps cents: one with more decimals is refused, not rounded where nobody sees it.
      if (def.type === 'currency' && Math.abs(round(raw, 2) - raw) > 1e-9) throw fieldError(field, 'validation.cents');
      const value = round(raw, whole ? 0 : lim.decimals);
      // Judged after rounding: 999 999 999 999.995 is 1e12 once rounded, which does not fit.
      if (value < min) throw fieldError(field, 'validation.tooSmall', { min });
      if (value > max) throw fieldError(field, 'validation.tooBig', { max });
      if (def.step && Math.abs(raw / def.step - Math.round(raw / def.step)) > 1e-9) throw fieldError(field, 'fields.step', { step: def.step });
      return value;
    }
    case 'date': {
      if (empty) {
        if (def.required) throw required();
        return null;
      }
      if (typeof raw !== 'string') throw wrongType();
      const v = raw.trim().slice(0, raw.trim().length === 19 ? 10 : undefined);
      if (!isRealDate(v)) throw fieldError(field, 'fields.invalidDate');
      return v;
    }
    case 'money': {
      // Exact decimal text ("1.234,56" or "1234.56" as typed), stored as its canonical text; a JS number is refused.
      if (empty) {
        if (def.required) throw required();
        return null;
      }
      if (typeof raw !== 'string') throw wrongType();
      const r = parseAmount(raw);
      if (!r.ok) throw fieldError(field, r.code);
      return r.value;
    }
    case 'date-time': {
      // The agency's local "YYYY-MM-DDTHH:mm:ss", stored as the moment it names.
      if (empty) {
        if (def.required) throw required();
        return null;
      }
      if (typeof raw !== 'string') throw wrongType();
      if (raw.trim().length < 19) throw fieldError(field, 'payments.dateTimeShort');
      return fromLocalDateTime(raw.trim(), ctx.timeZone, field);
    }
    case 'boolean': {
      if (typeof raw !== 'boolean') throw wrongType();
      return raw;
    }
    case 'boolNullable': {
      if (raw === null) return null;
      if (typeof raw !== 'boolean') throw wrongType();
      return raw;
    }
    case 'select':
    case 'enum':
    case 'location': {
      if (empty) {
        if (def.required) throw required();
        return null;
      }
      if (typeof raw !== 'number' && typeof raw !== 'string') throw wrongType();
      if (def.type === 'location' || def.exists) {
        const id = typeof raw === 'number' ? raw : Number(raw);
        if (!Number.isInteger(id) || id <= 0) throw wrongType();
        if (def.exists && !(await def.exists(ctx, id))) throw fieldError(field, 'validation.choice');
        return id;
      }
      const options = (await def.options?.(ctx, row)) ?? [];
      const hit = options.find((o) => sameOption(o, raw));
      if (!hit) throw fieldError(field, 'validation.choice');
      return hit.value;
    }
    case 'multi-select': {
      // Ids of the list's options ([2, 5] or "2,5"), kept in the list's order without repeats.
      const list = raw === null ? [] : typeof raw === 'string' ? raw.split(',').map((s) => s.trim()).filter(Boolean).map(Number) : raw;
      if (!Array.isArray(list) || list.some((v) => typeof v !== 'number' || !Number.isInteger(v))) throw wrongType();
      const options = (await def.options?.(ctx, row)) ?? [];
      const chosen = new Set(list as number[]);
      if ([...chosen].some((v) => !options.some((o) => sameOption(o, v)))) throw fieldError(field, 'validation.choice');
      if (def.required && !chosen.size) throw required();
      return options.filter((o) => chosen.has(Number(o.value))).map((o) => Number(o.value));
    }
    case 'flag-enum': {
      const list = raw === null ? [] : typeof raw === 'string' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : raw;
      if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) throw wrongType();
      const allowed = def.flags ?? [];
      const chosen = [...new Set(list as string[])];
      if (chosen.some((v) => !allowed.includes(v))) throw fieldError(field, 'validation.choice');
      if (def.required && !chosen.length) throw required();
      // in the order of the definition, so equal choices compare equal
      return allowed.filter((f) => chosen.includes(f));
    }
  }
}

/** The stored value of a field on a row (flag-enum: the set flags). */
export function readValue(field: string, def: PatchableField, row: Row): unknown {
  if (def.type === 'flag-enum') return (def.flags ?? []).filter((f) => row[f] === true);
  const v = row[def.column ?? field];
  if (def.type === 'multi-select') return Array.isArray(v) ? v : [];
  if (def.type === 'boolean') return v === true;
  return v === undefined ? null : v;
}

/** The table properties to write for a value. */
export function writeValues(field: string, def: PatchableField, value: unknown): Record<string, unknown> {
  if (def.type === 'flag-enum') {
    const set = value as string[];
    return Object.fromEntries((def.flags ?? []).map((f) => [f, set.includes(f)]));
  }
  return { [def.column ?? field]: value };
}

export const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
