import { describe, expect, it } from 'vitest';
import { parseTypedDate } from './typed-date.ts';

describe('parseTypedDate', () => {
  it.each([
    ['31/12/2026', '2026-12-31'],
    ['31.12.2026', '2026-12-31'],
    ['31-12-2026', '2026-12-31'],
    ['5/3/26', '2026-03-05'],
    [' 05 / 03 / 2026 ', '2026-03-05'],
    ['29/02/2028', '2028-02-29'],
    ['30/04/2026', '2026-04-30'],
  ])('reads %j as %s', (text, iso) => {
    expect(parseTypedDate(text)).toBe(iso);
  });

  it.each([
    ['27/11', '2026-11-27'],
    ['27.11', '2026-11-27'],
    ['27.11.', '2026-11-27'],
    ['5-3', '2026-03-05'],
  ])('reads %j, without a year, as this year: %s', (text, iso) => {
    expect(parseTypedDate(text, 2026)).toBe(iso);
  });

  it.each(['31/02/2026', '29/02/2027', '31/11/2026', '30/02/2027', '00/01/2026', '12/13/2026', '12/0/2026', '1/1/1800', '2026-03-05', '31/11', '29/02', 'abc', '', '3/', '3', '27/11/'])(
    'refuses %j',
    (text) => {
      expect(parseTypedDate(text, 2027)).toBeNull();
    },
  );
});
