import { describe, expect, it } from 'vitest';
import { parseAmount, readTypedDecimal } from '@crm/contract/typed-number';
import { formatTypedNumber, readTypedNumber } from './typed-number.ts';

const value = (s: string, scale = 2, neg = false) => {
  const r = readTypedNumber(s, scale, neg);
  return r.kind === 'number' ? r.value : r.kind === 'empty' ? '' : r.reason;
};

describe('a typed number', () => {
  it('reads Greek, Russian and English writing of prices and areas', () => {
    expect(value('250.000')).toBe(250000);
    expect(value('250,000')).toBe(250000);
    expect(value('1.250,50')).toBe(1250.5);
    expect(value('1,250.50')).toBe(1250.5);
    expect(value('1 250,50 €')).toBe(1250.5);
    expect(value('1\u00a0250,5')).toBe(1250.5);
    expect(value('1.250.000')).toBe(1250000);
    expect(value('12,5')).toBe(12.5);
    expect(value('12.5')).toBe(12.5);
    expect(value('250,')).toBe(250);
    expect(value(',5')).toBe(0.5);
    expect(value('0')).toBe(0);
    expect(value('  ')).toBe('');
  });

  it('refuses what is no number, too precise, or negative where it may not be', () => {
    // Three digits after a lone separator group thousands where two decimals are the most.
    expect(value('12,505')).toBe(12505);
    expect(value('12,5055')).toBe('precision');
    expect(value('1.2.3')).toBe('format');
    expect(value('1,2.3')).toBe('format');
    expect(value('12a')).toBe('format');
    expect(value('.')).toBe('format');
    expect(value('-5')).toBe('negative');
    expect(value('-5', 2, true)).toBe(-5);
    expect(value('12,5', 0)).toBe('precision');
    expect(value('1.250', 0)).toBe(1250);
    expect(value('9999999999999999')).toBe('format');
  });

  it('keeps a point before three digits a decimal mark where the field holds more decimals (coordinates)', () => {
    expect(value('40.640', 6)).toBe(40.64);
    expect(value('22.944,5', 6)).toBe(22944.5);
    expect(value('1.250,5', 6)).toBe(1250.5);
  });

  it('shows the number with space thousands and a decimal comma, unrounded', () => {
    expect(formatTypedNumber(1250.5)).toBe('1\u00a0250,5');
    expect(formatTypedNumber(250000)).toBe('250\u00a0000');
    expect(formatTypedNumber(1995, false)).toBe('1995');
    expect(formatTypedNumber(-12.25)).toBe('-12,25');
    expect(formatTypedNumber(1250.5, true, 2)).toBe('1\u00a0250,50');
    expect(formatTypedNumber(250000, true, 2)).toBe('250\u00a0000');
  });
});

describe("a payment's amount as typed (parseAmount, the same reading as every number of the app)", () => {
  const amount = (s: string) => {
    const r = parseAmount(s);
    return r.ok ? r.value : r.code;
  };

  it('reads Greek and Russian thousands dots and English thousands commas, as the booking form does', () => {
    // Greek and Russian: a dot groups thousands, a comma is the decimal mark.
    expect(amount('1.500')).toBe('1500.00');
    expect(amount('1.500,50')).toBe('1500.50');
    expect(amount('2.000')).toBe('2000.00');
    expect(amount('1.250.000')).toBe('1250000.00');
    expect(amount('1 500,5')).toBe('1500.50');
    expect(amount('80,20')).toBe('80.20');
    // English: a comma groups thousands, a point is the decimal mark.
    expect(amount('1,500.50')).toBe('1500.50');
    expect(amount('1,500')).toBe('1500.00');
    expect(amount('80.20')).toBe('80.20');
    expect(amount('1500')).toBe('1500.00');
    expect(amount('1 500 €')).toBe('1500.00');
    // Three digits after a lone separator group thousands: an amount has two decimals at most.
    expect(amount('10,005')).toBe('10005.00');
    // The booking form's field reads each of these as the same number.
    for (const typed of ['1.500', '1.500,50', '1,500.50', '2.000', '80,20'])
      expect(Number(amount(typed)), typed).toBe((readTypedNumber(typed, 2) as { value: number }).value);
  });

  it('keeps every cent exactly, past what a float holds', () => {
    expect(amount('999.999.999.999,99')).toBe('999999999999.99');
    expect(amount('0,10')).toBe('0.10');
    expect(amount('0123,4')).toBe('123.40');
  });

  it('refuses what is no amount, never rounding it', () => {
    expect(amount('10,0055')).toBe('payments.amountPrecision');
    expect(amount('1.500,505')).toBe('payments.amountPrecision');
    expect(amount('1.5.5')).toBe('payments.amountFormat');
    // Half a euro written with three decimals is no 500 €: a group of thousands never starts with 0.
    expect(amount('0,500')).toBe('payments.amountPrecision');
    expect(amount('0.500')).toBe('payments.amountPrecision');
    expect(amount('00.250')).toBe('payments.amountPrecision');
    expect(amount('000.123,4')).toBe('payments.amountFormat');
    expect(amount('1,500,50')).toBe('payments.amountFormat');
    expect(amount('1e3')).toBe('payments.amountFormat');
    expect(amount('-5')).toBe('payments.amountPositive');
    expect(amount('0,00')).toBe('payments.amountPositive');
    expect(amount('1.000.000.000.000')).toBe('payments.amountTooBig');
    expect(amount('  ')).toBe('validation.required');
  });

  it('answers the digits as text', () => {
    expect(readTypedDecimal('1.500,50', 2)).toEqual({ kind: 'number', negative: false, int: '1500', frac: '50' });
    expect(readTypedDecimal('-0,5', 2, true)).toEqual({ kind: 'number', negative: true, int: '0', frac: '5' });
  });
});
