import { describe, expect, it } from 'vitest';
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
