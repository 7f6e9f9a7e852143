import type { TFieldDescription, TObjectGroup } from '@crm/contract/object-fields';
import { OBJECT_FEATURE_GROUPS, OBJECT_FIELDS, OBJECT_FIELD_BY_NAME } from '@crm/contract/object-fields';
import type { TObjectSelectLists, TSelectOption } from '@crm/contract';
import { agencyToday } from '../../lib/agency-clock.ts';
import { formatFieldValue } from '../../components/fields/field-values.ts';

type T = (key: string, o?: Record<string, unknown>) => string;

/** Every field's label and every group's title come from the texts, by name. */
export const fieldLabel = (t: T, name: string) => t(`fields.object.${name}`);
export const groupTitle = (t: T, group: TObjectGroup | string) => t(`objects.group.${group}`);

/** A group's described fields, in the description's order (`fields`: the description, by default the real one). */
export const fieldsOf = (group: TObjectGroup, fields: readonly TFieldDescription[] = OBJECT_FIELDS): TFieldDescription[] => fields.filter((d) => d.group === group);

/** The edit form's sections (spec: main features, location, additional features, offer details, photos, map, contacts) and the groups each holds. */
export const OBJECT_FORM_SECTIONS: readonly { key: string; groups: readonly TObjectGroup[] }[] = [
  { key: 'main', groups: ['main', 'prices'] },
  { key: 'location', groups: ['location', 'address'] },
  { key: 'additional', groups: ['facts', 'building', 'comfort', 'outdoor'] },
  { key: 'offer', groups: ['offer', 'texts'] },
];
/** A group's inputs on the edit form: its fields a person edits, those of the expanded mode only in it. */
export const formFieldsOf = (group: TObjectGroup, expanded: boolean, fields: readonly TFieldDescription[] = OBJECT_FIELDS): TFieldDescription[] =>
  fieldsOf(group, fields).filter((d) => !d.readOnly && (expanded || !d.expandedOnly));
/** Every input of the edit form's sections, in their order. */
export const objectFormFields = (expanded: boolean, fields: readonly TFieldDescription[] = OBJECT_FIELDS): TFieldDescription[] =>
  OBJECT_FORM_SECTIONS.flatMap((s) => s.groups.flatMap((g) => formFieldsOf(g, expanded, fields)));

/** Fields the view's summary card shows in its own layout; every other field is shown by its group. */
const VIEW_SUMMARY: ReadonlySet<string> = new Set([
  'title', 'subTypeObjectTypeId', 'objectSubTypeId', 'forSale', 'forRent', 'forShortRent', 'active',
  'bedrooms', 'bathrooms', 'area', 'locationId',
  'salePrice', 'salePriceWithDiscount', 'dateOfSalePriceDiscount', 'rentPrice', 'rentPriceWithDiscount', 'dateOfRentPriceDiscount', 'shortRentPrice',
]);
/** Shown on the view in their own cards (texts), by the map, or in the service information. */
const VIEW_OWN_CARD: ReadonlySet<string> = new Set(['description', 'titleEn', 'descriptionEn', 'titleRu', 'descriptionRu', 'videoURL', 'internalNotes', 'publishRequested']);
/** The view's cards of described fields and the groups each shows, in the card's order. */
export const OBJECT_VIEW_CARDS = {
  address: ['location', 'address'],
  facts: ['main', 'facts'],
  offer: ['offer', 'prices'],
} as const satisfies Record<string, readonly TObjectGroup[]>;
/** The groups whose yes/no features the view's features card shows (the offer's are in the offer card). */
export const OBJECT_VIEW_FEATURE_GROUPS = (Object.keys(OBJECT_FEATURE_GROUPS) as TObjectGroup[]).filter((g) => g !== 'offer');
/** A view card's fields (those holding a value are shown): its groups' fields, but those the view shows elsewhere. */
export const viewFieldsOf = (groups: readonly TObjectGroup[], fields: readonly TFieldDescription[] = OBJECT_FIELDS): TFieldDescription[] =>
  groups.flatMap((g) => fieldsOf(g, fields)).filter((d) => !VIEW_SUMMARY.has(d.name) && !VIEW_OWN_CARD.has(d.name));
/** The texts card's further fields: those of the texts group it does not lay out itself (the titles, descriptions and video). */
export const viewTextFieldsOf = (fields: readonly TFieldDescription[] = OBJECT_FIELDS): TFieldDescription[] => viewFieldsOf(['texts'], fields);
/** Every field the view's cards of described fields may show, in their order. */
export const objectViewFields = (fields: readonly TFieldDescription[] = OBJECT_FIELDS): TFieldDescription[] => [
  ...viewTextFieldsOf(fields),
  ...Object.values(OBJECT_VIEW_CARDS).flatMap((groups) => viewFieldsOf(groups, fields)),
  ...viewFieldsOf(OBJECT_VIEW_FEATURE_GROUPS, fields),
];
export const describe = (name: string) => OBJECT_FIELD_BY_NAME.get(name);

/** The choices of a select field; subtypes only of the chosen type. */
export function optionsFor(d: TFieldDescription, lists: TObjectSelectLists | undefined, typeId?: unknown): TSelectOption[] {
  if (!d.list || !lists) return [];
  const all = (lists as Record<string, TSelectOption[] | undefined>)[d.list] ?? [];
  if (d.list === 'objectSubTypes' && typeId != null && typeId !== '') return all.filter((o) => String(o.parent) === String(typeId));
  return all;
}

/** Whether a field holds something worth showing: on/off flags only when on. */
export function isSet(d: TFieldDescription, value: unknown): boolean {
  if (value == null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (d.type === 'boolean') return value === true;
  return true;
}

/** A field's value as an agent reads it: money `1 234 €`, area m², distances in km from 1000 m, choices by name. */
export function formatObjectValue(t: T, d: TFieldDescription, value: unknown, lists?: TObjectSelectLists, valueText?: string): string {
  if (d.type === 'number' && d.integer && (d.max ?? 0) <= 9999 && typeof value === 'number') return String(value);
  return formatFieldValue(d.type, value, t, optionsFor(d, lists), valueText);
}

/** Tenant links ended (end date in the past) grouped by end year, years ascending. */
export function endedTenantsByYear<L extends { relation: number; endDate?: string | null }>(links: L[], todayStr = agencyToday()): [number, L[]][] {
  const byYear = new Map<number, L[]>();
  for (const l of links) {
    if (!isEnded(l, todayStr)) continue;
    const y = Number(l.endDate!.slice(0, 4));
    byYear.set(y, [...(byYear.get(y) ?? []), l]);
  }
  return [...byYear.entries()].sort((a, b) => a[0] - b[0]);
}

const isTenant = (r: number) => r === 4 || r === 7;
const isEnded = (l: { relation: number; endDate?: string | null }, todayStr: string) => isTenant(l.relation) && !!l.endDate && l.endDate.slice(0, 10) < todayStr;

/** Links shown under current contacts: everything but ended tenant links. */
export function currentContacts<L extends { relation: number; endDate?: string | null }>(links: L[], todayStr = agencyToday()): L[] {
  return links.filter((l) => !isEnded(l, todayStr));
}

/** rentPaymentDay: 0 the last day of the month, -n n days before it, 1..31 that day of the month. */
export function rentPaymentDayText(t: T, day: number | null | undefined): string {
  if (day == null) return '';
  if (day === 0) return t('objects.contacts.payDay.last');
  if (day < 0) return t('objects.contacts.payDay.beforeLast', { count: -day });
  return t('objects.contacts.payDay.day', { day });
}
