import { eq } from 'drizzle-orm';
import { OBJECT_EDITABLE_FIELDS, showsPoint, type TFieldDescription, type TObjectListName } from '@crm/contract';
import { locations } from '../../db/schema/index.ts';
import { fieldError } from '../../lib/errors.ts';
import type { PatchableField } from '../fields/field-registry.ts';
import { listOptions, parentTypeOf } from './objects.options.ts';

type Row = Record<string, unknown>;

/** The single-field editor's rule of one described field (also used by POST /api/object/update). */
export function patchableOf(d: TFieldDescription): PatchableField {
  const def: PatchableField = { type: d.type, max: d.max, min: d.min, integer: d.integer, step: d.step, required: d.required };
  if ((d.type === 'select' || d.type === 'multi-select') && d.list) {
    const list = d.list as TObjectListName;
    def.options = (ctx) => listOptions(ctx.t, list);
  }
  if (d.type === 'location') {
    def.exists = async (ctx, id) => (await ctx.db.select({ id: locations.id }).from(locations).where(eq(locations.id, id))).length > 0;
  }
  return def;
}

/** Every field a person edits (read-only ones are the system's). */
export const OBJECT_PATCHABLE: Record<string, PatchableField> = Object.fromEntries(OBJECT_EDITABLE_FIELDS.map((d) => [d.name, patchableOf(d)]));

const set = (v: unknown) => v !== null && v !== undefined;

/**
 * Rules across fields, judged on the values the object will have. `changed` are the fields of
 * this change: an error is shown under the one the person just edited where the rule involves it.
 */
export function checkObjectRules(o: Row, changed: ReadonlySet<string>) {
  const blame = (fields: string[], code: string, params?: Record<string, string | number>) => {
    const field = fields.find((f) => changed.has(f)) ?? fields[0]!;
    throw fieldError(field, code, params);
  };
  const involved = (fields: string[]) => fields.some((f) => changed.has(f));

  // A subtype belongs to one type.
  if (set(o.objectSubTypeId) && set(o.subTypeObjectTypeId) && involved(['objectSubTypeId', 'subTypeObjectTypeId'])) {
    if (parentTypeOf(o.objectSubTypeId as number) !== o.subTypeObjectTypeId) blame(['objectSubTypeId', 'subTypeObjectTypeId'], 'objects.subTypeOfOtherType');
  }
  // A point is both coordinates or none; so is the circle's centre.
  for (const [lat, lng] of [
    ['latitude', 'longitude'],
    ['mapCircleLatitude', 'mapCircleLongitude'],
  ] as const) {
    if (set(o[lat]) !== set(o[lng]) && involved([lat, lng])) throw fieldError(set(o[lat]) ? lng : lat, 'objects.pointIncomplete');
  }
  // Where the exact point is not displayed (not chosen, or the address is hidden), the approximate circle is.
  const circleFields = ['displayCoordinates', 'displayAddress', 'address', 'latitude', 'longitude', 'mapCircleLatitude', 'mapCircleLongitude', 'mapCircleRadius'];
  if (!showsPoint(o) && set(o.latitude) && set(o.longitude) && involved(circleFields)) {
    if (!set(o.mapCircleLatitude) || !set(o.mapCircleLongitude) || !set(o.mapCircleRadius)) {
      blame(['mapCircleRadius', 'mapCircleLatitude', 'mapCircleLongitude', 'displayCoordinates', 'latitude', 'longitude'], 'objects.circleRequired');
    }
  }
  // A discounted price has its date and is below the price.
  for (const [price, discounted, date] of [
    ['salePrice', 'salePriceWithDiscount', 'dateOfSalePriceDiscount'],
    ['rentPrice', 'rentPriceWithDiscount', 'dateOfRentPriceDiscount'],
  ] as const) {
    if (!involved([price, discounted, date])) continue;
    // A "reduced" price above the price is the first thing to say (before its missing date).
    if (set(o[discounted]) && set(o[price]) && (o[discounted] as number) >= (o[price] as number)) blame([discounted, price], 'objects.discountNotLower');
    if (set(o[discounted]) && !set(o[date])) throw fieldError(date, 'objects.discountDateRequired');
  }
  if (set(o.constructionYear) && set(o.renovationYear) && (o.renovationYear as number) < (o.constructionYear as number) && involved(['constructionYear', 'renovationYear'])) {
    blame(['renovationYear', 'constructionYear'], 'objects.renovationBeforeConstruction');
  }
}
