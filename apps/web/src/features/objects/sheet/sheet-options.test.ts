import { describe, expect, it } from 'vitest';
import { printedPrice, readSheetOptions, writeSheetOptions } from './sheet-options.ts';

const read = (s: string) => readSheetOptions(new URLSearchParams(s), 'el');

describe('the property sheet\'s options', () => {
  it('default to the reader\'s language, the first price, no address and five photos', () => {
    expect(read('')).toEqual({ culture: 'el', service: null, address: false, photos: 5 });
  });

  it('read what the agent chose, and fall back on anything unreadable', () => {
    expect(read('lang=ru&service=rent&address=1&photos=2')).toEqual({ culture: 'ru', service: 'rent', address: true, photos: 2 });
    expect(read('photos=0').photos).toBe(0);
    for (const bad of ['photos=6', 'photos=-1', 'photos=1.5', 'photos=', 'photos=x']) expect(read(bad).photos, bad).toBe(5);
    expect(read('lang=de&service=lease&address=yes')).toEqual({ culture: 'el', service: null, address: false, photos: 5 });
  });

  it('write only what differs from the defaults, and read back the same', () => {
    expect(writeSheetOptions({ culture: 'el', service: null, address: false, photos: 5 }, 'el').toString()).toBe('');
    const o = { culture: 'en' as const, service: 'shortRent' as const, address: true, photos: 0 };
    expect(readSheetOptions(writeSheetOptions(o, 'el'), 'el')).toEqual(o);
  });

  it('print the chosen service\'s price, else the first one', () => {
    const prices = [{ service: 'sale' as const, price: '150 000 €' }, { service: 'rent' as const, price: '600 €' }];
    expect(printedPrice(prices, 'rent')?.price).toBe('600 €');
    expect(printedPrice(prices, null)?.price).toBe('150 000 €');
    expect(printedPrice(prices, 'shortRent')?.price).toBe('150 000 €');
    expect(printedPrice([], 'sale')).toBeNull();
  });
});
