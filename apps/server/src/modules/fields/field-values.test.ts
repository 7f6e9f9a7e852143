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
    expect(await stored('money', '')).toBeNull();
  });
  it('refuses a JS number, too many decimals, a negative amount and an empty required one', async () => {
    expect(await refusal(stored('money', 12.5))).toBe('validation.invalidType');
    expect(await refusal(stored('money', '10.005'))).toBe('payments.amountPrecision');
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
