import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import type { FieldContext } from './field-registry.ts';
import { normalizeValue } from './field-values.ts';

// The two field types made for exact money and a moment entered as a date and a time: what a
// single-field edit of such a field would store, and what it refuses.
const ctx = { timeZone: 'Europe/Athens' } as FieldContext;
const stored = (type: 'money' | 'date-time', raw: unknown, required = false) => normalizeValue('f', { type, required }, raw, ctx, {});
const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return (e as AppError).fieldErrors?.f?.[0]?.code;
};

describe('exact money', () => {
  it('is stored as its canonical decimal text, as people type it', async () => {
    expect(await stored('money', '1.234,56')).toBe('1234.56');
    expect(await stored('money', '1234.5')).toBe('1234.50');
    expect(await stored('money', ' 1 234,56 ')).toBe('1234.56');
    // Thousands as Greek writes them, as every number box of the app reads them.
    expect(await stored('money', '1.500')).toBe('1500.00');
    expect(await stored('money', '')).toBeNull();
  });
  it('refuses a JS number, too many decimals, a negative amount and an empty required one', async () => {
    expect(await refusal(stored('money', 12.5))).toBe('validation.invalidType');
    expect(await refusal(stored('money', '10.0055'))).toBe('payments.amountPrecision');
    expect(await refusal(stored('money', '-3'))).toBe('payments.amountPositive');
    expect(await refusal(stored('money', null, true))).toBe('validation.required');
  });
});

describe('date and time', () => {
  it('is stored as the moment the agency’s local time names', async () => {
    expect(await stored('date-time', '2026-07-01T10:30:00')).toEqual(new Date('2026-07-01T07:30:00Z'));
    expect(await stored('date-time', '2026-01-15T10:30:00')).toEqual(new Date('2026-01-15T08:30:00Z'));
  });
  it('refuses a date without its time and a day that does not exist', async () => {
    expect(await refusal(stored('date-time', '2026-07-01'))).toBe('payments.dateTimeShort');
    expect(await refusal(stored('date-time', '2026-02-30T10:30:00'))).toBe('validation.format');
  });
});

// What the whole-record saves take, the single-field edit takes too, and stores the same way.
const value = (type: 'currency' | 'distance' | 'number' | 'date', raw: unknown, extra: Record<string, unknown> = {}) => normalizeValue('f', { type, ...extra }, raw, ctx, {});

describe('numbers as the whole-record saves take them', () => {
  it('refuses a price that numeric(14,2) cannot hold (it was a 500)', async () => {
    expect(await value('currency', 999999999999.99)).toBe(999999999999.99);
    expect(await refusal(value('currency', 1e12))).toBe('validation.tooBig');
    // Past the cents it is refused before it could be rounded up out of the column.
    expect(await refusal(value('currency', 999999999999.995))).toBe('validation.cents');
  });
  it('keeps a map point to six decimals (a tenth of a metre), not four', async () => {
    expect(await value('number', 40.3135641, { min: -90, max: 90 })).toBe(40.313564);
    expect(await value('number', 22.9471234, { min: -180, max: 180 })).toBe(22.947123);
  });
  it('refuses a distance in parts of a metre, as the whole-record save does, and a whole number past an integer column', async () => {
    expect(await refusal(value('distance', 150.5))).toBe('fields.wholeNumber');
    expect(await value('distance', 150)).toBe(150);
    expect(await refusal(value('number', 3_000_000_000, { integer: true }))).toBe('validation.tooBig');
  });
  it('takes the years 1-99 the whole-record saves take (Date.UTC read them as 1900-1999)', async () => {
    expect(await value('date', '0099-03-01')).toBe('0099-03-01');
    expect(await value('date', '2024-02-29')).toBe('2024-02-29');
    expect(await refusal(value('date', '0000-03-01'))).toBe('fields.invalidDate');
    expect(await refusal(value('date', '2026-02-29'))).toBe('fields.invalidDate');
  });
});
