import { describe, expect, it } from 'vitest';
import { buildDemoAgency } from './demo-accounts.ts';
import { createClock } from './demo-time.ts';

describe("the demo agency's countries and nationalities", () => {
  it('are written as a Greek office writes them: in Greek, for Greek clients and foreign ones alike', () => {
    const { accounts } = buildDemoAgency(createClock(new Date('2026-03-12T10:00:00Z'), 'Europe/Athens'));
    const values = (key: 'country' | 'nationality') => new Set(accounts.map((a) => a.row[key]).filter((v) => v != null) as string[]);
    expect([...values('country')].sort()).toEqual(['Βουλγαρία', 'Γερμανία', 'Ελλάδα', 'Ηνωμένο Βασίλειο', 'Ρωσία']);
    expect([...values('nationality')].sort()).toEqual(['Βουλγαρική', 'Βρετανική', 'Γερμανική', 'Ελληνική', 'Ρωσική']);
    const greek = accounts.filter((a) => a.nat === 'gr' && !a.partner && a.row.country != null);
    expect(greek.length).toBeGreaterThan(50);
    for (const a of greek) expect([a.row.country, a.row.nationality]).toEqual(['Ελλάδα', 'Ελληνική']);
    const russians = accounts.filter((a) => a.nat === 'ru' && a.row.language === 'ru' && a.row.nationality != null);
    expect(new Set(russians.map((a) => a.row.nationality))).toEqual(new Set(['Ρωσική']));
  });
});
