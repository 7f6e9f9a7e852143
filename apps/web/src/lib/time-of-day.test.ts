import { describe, expect, it } from 'vitest';
import { parseTimeOfDay, stepTimeOfDay } from './time-of-day.ts';

describe('parseTimeOfDay', () => {
  it.each([
    ['9', '09:00'],
    ['09', '09:00'],
    ['0', '00:00'],
    ['930', '09:30'],
    ['0930', '09:30'],
    ['2105', '21:05'],
    ['9:30', '09:30'],
    ['09.30', '09:30'],
    ['9,30', '09:30'],
    ['9h30', '09:30'],
    ['21 05', '21:05'],
    ['21:05', '21:05'],
    ['  7:45 ', '07:45'],
    ['9:', '09:00'],
    ['9h', '09:00'],
    ['00:00', '00:00'],
    ['23:59', '23:59'],
    ['8:19 PM', '20:19'],
    ['08:19 P', '20:19'],
    ['8:19 am', '08:19'],
    ['12:05 a.m.', '00:05'],
    ['12 pm', '12:00'],
    ['9pm', '21:00'],
    ['8:19 μ.μ.', '20:19'],
    ['8:19 π.μ.', '08:19'],
    ['8 вечера', '20:00'],
    ['9:30 утра', '09:30'],
    ['3 дня', '15:00'],
    ['12 дня', '12:00'],
    ['12 ночи', '00:00'],
    ['2 ночи', '02:00'],
    ['7 ВЕЧЕРА', '19:00'],
    ['10 веч.', '22:00'],
    ['9:15 дп', '09:15'],
    ['9:15 пп', '21:15'],
    ['9ч30', '09:30'],
    ['9 ч 30 мин', '09:30'],
  ])('reads %j as %s', (text, time) => {
    expect(parseTimeOfDay(text)).toBe(time);
  });

  it('reads an empty text as no time', () => {
    expect(parseTimeOfDay('')).toBe('');
    expect(parseTimeOfDay('   ')).toBe('');
  });

  it.each(['25:00', '24:00', '2400', '12:60', '99', '12345', 'abc', '9:3', '9:300', ':30', '13 pm', '0 am', '13 вечера', 'вечера', '1-30', 'pm', '9:30x'])('refuses %j', (text) => {
    expect(parseTimeOfDay(text)).toBeNull();
  });
});

describe('stepTimeOfDay', () => {
  it('steps minutes and hours, each wrapping round on its own', () => {
    expect(stepTimeOfDay('09:30', 'minutes', 1)).toBe('09:31');
    expect(stepTimeOfDay('09:59', 'minutes', 1)).toBe('09:00');
    expect(stepTimeOfDay('09:00', 'minutes', -1)).toBe('09:59');
    expect(stepTimeOfDay('23:15', 'hours', 1)).toBe('00:15');
    expect(stepTimeOfDay('00:15', 'hours', -1)).toBe('23:15');
  });

  it('starts an empty time at midnight', () => {
    expect(stepTimeOfDay('', 'hours', 1)).toBe('01:00');
    expect(stepTimeOfDay('', 'minutes', -1)).toBe('00:59');
  });
});
