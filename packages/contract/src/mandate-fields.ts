// A property's mandate (εντολή ανάθεσης, law 4072/2012 art. 197-204; decision 079): its fields
// described once (label `mandates.field.<name>`, group title `mandates.group.<group>`), and the
// law's limits of an exclusive mandate. No zod: the web's form imports it alone.
import type { TFieldDescriptionOf } from './field-description.ts';

export const MANDATE_KINDS = ['simple', 'exclusive'] as const;
export type TMandateKind = (typeof MANDATE_KINDS)[number];

export const MANDATE_GROUPS = ['main', 'money', 'texts'] as const;
export type TMandateGroup = (typeof MANDATE_GROUPS)[number];
export type TMandateFieldDescription = TFieldDescriptionOf<TMandateGroup>;

/** An exclusive mandate lasts at most this many months (art. 200 law 4072/2012) ... */
export const EXCLUSIVE_MAX_MONTHS = 8;
/** ... and may be extended once, by at most this many months. */
export const EXTENSION_MAX_MONTHS = 4;
export const EXTENSIONS_MAX = 1;
/** The property's agents are alerted this many days before a mandate ends (once each). */
export const MANDATE_ALERT_DAYS = [30, 10] as const;
/** "Ending soon": within this many days. */
export const MANDATE_ENDING_SOON_DAYS = 30;
/** At most this many owners and named exceptions on one mandate. */
export const MANDATE_MAX_OWNERS = 20;
export const MANDATE_MAX_EXCEPTIONS = 50;

const d = (name: string, type: TMandateFieldDescription['type'], group: TMandateGroup, extra: Partial<TMandateFieldDescription> = {}): TMandateFieldDescription => ({ name, type, group, ...extra });

export const MANDATE_FIELDS: readonly TMandateFieldDescription[] = [
  d('kind', 'select', 'main', { list: 'mandateKinds', required: true }),
  d('startDate', 'date', 'main', { required: true }),
  d('endDate', 'date', 'main', { required: true }),
  d('extendedUntil', 'date', 'main'),
  d('askingPrice', 'currency', 'money', { step: 0.01, min: 0, max: 999999999999.99 }),
  d('commissionPercent', 'number', 'money', { step: 0.01, min: 0, max: 100 }),
  d('commissionAmount', 'currency', 'money', { step: 0.01, min: 0, max: 999999999999.99 }),
  d('notes', 'textarea', 'texts', { max: 4000 }),
];

/** A day "YYYY-MM-DD" some months later, on the same day of the month or the month's last (2026-06-30 + 8 → 2027-02-28). */
export function addMonths(date: string, months: number): string {
  const [y, m, day] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = (total % 12) + 1;
  const last = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  return `${String(ny).padStart(4, '0')}-${String(nm).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
}

/** The day a mandate ends: its extension's, else its own. */
export const mandateEnds = (m: { endDate: string; extendedUntil?: string | null }) => m.extendedUntil ?? m.endDate;

/** Whether a mandate is in force on a day (its first and last day included). */
export const mandateInForce = (m: { startDate: string; endDate: string; extendedUntil?: string | null }, today: string) => m.startDate <= today && today <= mandateEnds(m);
