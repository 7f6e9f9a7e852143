// The objects' (properties') fields, described once. This module has no runtime dependencies (the
// web imports it as '@crm/contract/object-fields' without zod); the object's zod schema, its
// Drizzle table, the single-field editor's rules and the web's view and edit form are all made
// from OBJECT_FIELDS. Adding a field: one entry here, a migration (drizzle-kit generate), and its
// label in en/el/ru (fields.object.<name>). See docs/decisions/009-field-descriptions.md.

import type { TCulture } from './constants.ts';
import type { TFieldType } from './fields.ts';
import type { TFieldDescriptionOf } from './field-description.ts';

export type { TFieldDescriptionOf } from './field-description.ts';

/** Select lists of objects: the value is a stable id; the text is `objects.list.<list>.<value>`. */
export const OBJECT_LISTS = {
  /** 1 residential, 2 commercial, 3 land, 4 other */
  objectTypes: [1, 2, 3, 4],
  accessFrom: [1, 2, 3, 4, 5, 6],
  orientation: [1, 2, 3, 4, 5, 6, 7, 8],
  floorsType: [1, 2, 3, 4, 5, 6, 7, 8, 9],
  framesType: [1, 2, 3, 4, 5, 6],
  energyClass: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  zone: [1, 2, 3, 4, 5, 6, 7, 8],
  heatingMedium: [1, 2, 3, 4, 5, 6, 7, 8],
  heating: [1, 2, 3, 4, 5],
} as const;
export type TObjectListName = keyof typeof OBJECT_LISTS | 'objectSubTypes';

/**
 * Subtypes with their type (the option's parent). Residential means subtype id 6 or less.
 * 1 apartment, 2 studio, 3 maisonette, 4 detached house, 5 villa, 6 apartment building;
 * 7 office, 8 shop, 9 warehouse, 10 industrial building, 11 hotel, 12 commercial building,
 * 13 building plot, 14 land parcel, 15 parking space, 16 business for sale, 17 other.
 */
export const OBJECT_SUBTYPES: readonly { value: number; parent: number }[] = [
  { value: 1, parent: 1 }, { value: 2, parent: 1 }, { value: 3, parent: 1 }, { value: 4, parent: 1 },
  { value: 5, parent: 1 }, { value: 6, parent: 1 },
  { value: 7, parent: 2 }, { value: 8, parent: 2 }, { value: 9, parent: 2 }, { value: 10, parent: 2 },
  { value: 11, parent: 2 }, { value: 12, parent: 2 },
  { value: 13, parent: 3 }, { value: 14, parent: 3 },
  { value: 15, parent: 4 }, { value: 16, parent: 4 }, { value: 17, parent: 4 },
];
export const RESIDENTIAL_MAX_SUBTYPE = 6;
export const isResidential = (subTypeId: number | null | undefined) => subTypeId != null && subTypeId <= RESIDENTIAL_MAX_SUBTYPE;

/** Object–account relations; 4 and 7 are tenants (long let, short let). */
export const OBJECT_RELATIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export const TENANT_RELATIONS = [4, 7] as const;
/** A long let's tenant (the link a closed rental deal gives its tenant). */
export const TENANT_RELATION = 4;
export const OWNER_RELATION = 1;
export const isTenantRelation = (r: number) => r === 4 || r === 7;

/** The groups of the edit form and of the view, in order. */
export const OBJECT_GROUPS = [
  'main',
  'prices',
  'location',
  'address',
  'facts',
  'building',
  'comfort',
  'outdoor',
  'situation',
  'offer',
  'texts',
  'map',
  'service',
] as const;
export type TObjectGroup = (typeof OBJECT_GROUPS)[number];

export type TObjectFieldType = TFieldType;
export type TFieldDescription = TFieldDescriptionOf<TObjectGroup>;

const f = (name: string, type: TObjectFieldType, group: TObjectGroup, extra: Partial<TFieldDescription> = {}): TFieldDescription => ({
  name,
  type,
  group,
  ...extra,
});
const yesNo = (group: TObjectGroup) => (name: string) => f(name, 'boolNullable', group);

/** The yes / no / not set features, grouped as an agent describes a property. */
export const OBJECT_FEATURE_GROUPS = {
  building: [
    'newBuilding', 'underConstruction', 'newDevelopment', 'unfinished', 'renovated', 'requiredRenovation', 'neoclassical',
    'preserved', 'luxurious', 'penthouse', 'elevator', 'internalStaircase', 'attic', 'playroom', 'storageSpace', 'disabledAccess',
  ],
  comfort: [
    'airCondition', 'underFloorHeating', 'fireplace', 'solarWaterHeating', 'nightPower', 'doubleGlass', 'windowScreens',
    'alarm', 'secureDoor', 'furnished', 'painted', 'bright', 'airy',
  ],
  outdoor: ['balcony', 'awning', 'garden', 'swimmingPool', 'parking', 'view', 'seaView', 'firstCoastLine', 'facade', 'corner', 'buildableLand'],
  offer: [
    'student', 'petsWelcome', 'suitableForCommercialUse', 'eligibleForGoldenVisa', 'investment', 'ourProject', 'noAgentFeeForBuyer',
  ],
} as const satisfies Partial<Record<TObjectGroup, readonly string[]>>;
export const OBJECT_FEATURES = Object.values(OBJECT_FEATURE_GROUPS).flat();
export type TObjectFeature = (typeof OBJECT_FEATURES)[number];

/** Every stored, edited field of an object, in the order of the edit form. */
export const OBJECT_FIELDS: readonly TFieldDescription[] = [
  // main features
  f('title', 'text', 'main', { max: 200 }),
  f('subTypeObjectTypeId', 'select', 'main', { list: 'objectTypes' }),
  f('objectSubTypeId', 'select', 'main', { list: 'objectSubTypes' }),
  ...['forSale', 'forRent', 'forShortRent', 'active'].map((n) => f(n, 'boolean', 'main')),
  f('area', 'area', 'main', { max: 1e7 }),
  f('bedrooms', 'number', 'main', { integer: true, min: 0, max: 100 }),
  f('bathrooms', 'number', 'main', { integer: true, min: 0, max: 100 }),
  f('livingRooms', 'number', 'main', { integer: true, min: 0, max: 100, expandedOnly: true }),
  f('kitchens', 'number', 'main', { integer: true, min: 0, max: 100, expandedOnly: true }),
  f('wc', 'number', 'main', { integer: true, min: 0, max: 100, expandedOnly: true }),
  f('floor', 'number', 'main', { integer: true, min: -5, max: 200 }),
  f('levels', 'number', 'main', { integer: true, min: 1, max: 200 }),
  // prices
  f('salePrice', 'currency', 'prices'),
  f('salePriceWithDiscount', 'currency', 'prices'),
  f('dateOfSalePriceDiscount', 'date', 'prices'),
  f('rentPrice', 'currency', 'prices'),
  f('rentPriceWithDiscount', 'currency', 'prices'),
  f('dateOfRentPriceDiscount', 'date', 'prices'),
  f('shortRentPrice', 'currency', 'prices'),
  f('averageMonthlySharedExpenses', 'currency', 'prices'),
  // location
  f('locationId', 'location', 'location'),
  f('address', 'text', 'address', { max: 300 }),
  f('displayAddress', 'boolean', 'address'),
  f('zipCode', 'text', 'address', { max: 20 }),
  f('distanceFromSea', 'distance', 'address', { max: 1e6 }),
  f('distanceFromAirport', 'distance', 'address', { max: 1e6 }),
  f('accessFrom', 'select', 'address', { list: 'accessFrom' }),
  f('orientation', 'multi-select', 'address', { list: 'orientation' }),
  f('zone', 'select', 'address', { list: 'zone' }),
  // facts
  f('lotArea', 'area', 'facts', { max: 1e9 }),
  f('buildableArea', 'area', 'facts', { max: 1e9 }),
  f('sizeOfBalconies', 'area', 'facts', { max: 1e6 }),
  f('parkingLots', 'number', 'facts', { integer: true, min: 0, max: 10000 }),
  f('constructionYear', 'number', 'facts', { integer: true, min: 1800, max: 2100 }),
  f('renovationYear', 'number', 'facts', { integer: true, min: 1800, max: 2100 }),
  f('energyClass', 'select', 'facts', { list: 'energyClass' }),
  f('heating', 'select', 'facts', { list: 'heating' }),
  f('heatingMedium', 'select', 'facts', { list: 'heatingMedium' }),
  f('framesType', 'select', 'facts', { list: 'framesType' }),
  f('floorsType', 'select', 'facts', { list: 'floorsType' }),
  f('dateAvailable', 'date', 'facts'),
  // features (yes / no / not set)
  ...OBJECT_FEATURE_GROUPS.building.map(yesNo('building')),
  ...OBJECT_FEATURE_GROUPS.comfort.map(yesNo('comfort')),
  ...OBJECT_FEATURE_GROUPS.outdoor.map(yesNo('outdoor')),
  ...OBJECT_FEATURE_GROUPS.offer.map(yesNo('offer')),
  // offer details
  /** The property's code on the short-let website (reservations find it by this code). */
  f('websiteCode', 'text', 'offer', { max: 50 }),
  ...['featured', 'recommended', 'soldRecently', 'reserved', 'hasBanner', 'publishRequested'].map((n) => f(n, 'boolean', 'offer')),
  // texts
  f('description', 'textarea', 'texts', { max: 20000 }),
  f('titleEn', 'text', 'texts', { max: 200, expandedOnly: true }),
  f('descriptionEn', 'textarea', 'texts', { max: 20000, expandedOnly: true }),
  f('titleRu', 'text', 'texts', { max: 200, expandedOnly: true }),
  f('descriptionRu', 'textarea', 'texts', { max: 20000, expandedOnly: true }),
  f('videoURL', 'text', 'texts', { max: 500 }),
  f('internalNotes', 'textarea', 'texts', { max: 20000 }),
  // map
  f('latitude', 'number', 'map', { min: -90, max: 90 }),
  f('longitude', 'number', 'map', { min: -180, max: 180 }),
  f('displayCoordinates', 'boolean', 'map'),
  f('mapZoom', 'number', 'map', { integer: true, min: 1, max: 19 }),
  f('mapCircleLatitude', 'number', 'map', { min: -90, max: 90 }),
  f('mapCircleLongitude', 'number', 'map', { min: -180, max: 180 }),
  f('mapCircleRadius', 'number', 'map', { integer: true, min: 40, max: 10000, step: 10 }),
  // service information (set by the system)
  f('published', 'boolean', 'service', { readOnly: true }),
  f('publishError', 'text', 'service', { readOnly: true, max: 2000 }),
  f('rented', 'boolean', 'service', { readOnly: true }),
  f('sold', 'boolean', 'service', { readOnly: true }),
  f('hasKey', 'boolean', 'service', { readOnly: true }),
];

/** A property's titles: the main one (the agency's, Greek or English as typed), the English one and the Russian one. */
export type TObjectTitleField = 'title' | 'titleEn' | 'titleRu';
/**
 * The order a reader's screens look for a property's title in: the reader's own first (the English
 * one on an English screen, the main one on a Greek screen, the Russian one on a Russian screen),
 * then the main one, then the others, skipping a blank one; so a property with any title never
 * shows none. The server (`objectTitle`, every list and picker), the property's page and its sheet
 * read this one table; the public site and the feed read their texts as public.view.ts says.
 */
export const OBJECT_TITLE_ORDER: Readonly<Record<TCulture, readonly TObjectTitleField[]>> = {
  en: ['titleEn', 'title', 'titleRu'],
  el: ['title', 'titleEn', 'titleRu'],
  ru: ['titleRu', 'title', 'titleEn'],
};
/** The language a title field is meant for (the main one: the agency's, null). */
export const OBJECT_TITLE_LANGUAGE: Readonly<Record<TObjectTitleField, TCulture | null>> = { title: null, titleEn: 'en', titleRu: 'ru' };

export const OBJECT_FIELD_BY_NAME: ReadonlyMap<string, TFieldDescription> = new Map(OBJECT_FIELDS.map((d) => [d.name, d]));
export const OBJECT_EDITABLE_FIELDS = OBJECT_FIELDS.filter((d) => !d.readOnly);

/** The approximate circle on the map: metres. */
export const MAP_CIRCLE = { min: 40, max: 10000, step: 10, default: 2500 } as const;
export const MAP_DEFAULTS = { latitude: 40.63, longitude: 22.94, zoom: 12, editorZoom: 17, height: 400 } as const;

/** Metres from one point to another: the equirectangular approximation, exact enough within a circle of 10 km. */
export function metresBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dy = (lat2 - lat1) * METRES_PER_DEGREE;
  const dx = (lng2 - lng1) * METRES_PER_DEGREE * Math.cos((lat1 * Math.PI) / 180);
  return Math.sqrt(dx * dx + dy * dy);
}
const METRES_PER_DEGREE = 111_320;

/**
 * Whether a property's exact point is shown to the public (the site, the feeds): only when the
 * agent chose to show it and the address is not hidden, for the point is the address (decision
 * 056). A property with no address written shows its point when chosen (a plot in the country).
 */
export function showsPoint(o: { displayCoordinates?: unknown; displayAddress?: unknown; address?: unknown }): boolean {
  return o.displayCoordinates === true && (o.displayAddress === true || typeof o.address !== 'string' || o.address.trim() === '');
}

/**
 * Whether the approximate circle hides the exact point: its centre at least a fifth of its radius
 * away from the point. A circle drawn around the point itself would give the point away (its centre
 * is the address), so such a circle is not published (`crm_circle_hides_point` in SQL, migration 0043).
 */
export function circleHidesPoint(point: { latitude: number; longitude: number }, circle: { latitude: number; longitude: number; radius: number }): boolean {
  return metresBetween(point.latitude, point.longitude, circle.latitude, circle.longitude) >= circle.radius / 5;
}

/**
 * A circle's centre for a hidden point: in a random direction, between a quarter and half of the
 * radius away, so the point is inside the circle but not at its centre. Six decimals, as stored.
 */
export function circleCentreAround(latitude: number, longitude: number, radius: number, random: () => number = Math.random): { latitude: number; longitude: number } {
  const angle = random() * 2 * Math.PI;
  const distance = radius * (0.25 + random() * 0.25);
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  return {
    latitude: round(latitude + (distance * Math.cos(angle)) / METRES_PER_DEGREE),
    longitude: round(longitude + (distance * Math.sin(angle)) / (METRES_PER_DEGREE * Math.cos((latitude * Math.PI) / 180))),
  };
}

/** Described fields a list or file shows in its own way (the type and the place, by their names): never a column of their own. */
export const OBJECT_SHOWN_BY_NAME: ReadonlySet<string> = new Set(['subTypeObjectTypeId', 'objectSubTypeId', 'locationId']);
/** What stays in the CRM, as the owners' phones do: a list of properties is often passed on (not in Properties.xlsx, not a column). */
export const OBJECT_NOT_IN_FILE: ReadonlySet<string> = new Set(['internalNotes', 'publishError']);

/** The described fields the property search list's row holds (ZObjectSearchRow; a test keeps the two the same). */
export const OBJECT_SEARCH_ROW_FIELDS: ReadonlySet<string> = new Set(['title', 'area', 'forSale', 'forRent', 'forShortRent', 'salePrice', 'rentPrice', 'shortRentPrice']);
/**
 * The property search list's further columns (its column chooser): every described field that
 * Properties.xlsx writes and the row does not hold already. A field added to the description is
 * offered here without a line of its own.
 */
export const objectMoreColumns = (fields: readonly TFieldDescription[]): string[] =>
  fields.filter((d) => d.group !== 'map' && !OBJECT_SHOWN_BY_NAME.has(d.name) && !OBJECT_NOT_IN_FILE.has(d.name) && !OBJECT_SEARCH_ROW_FIELDS.has(d.name)).map((d) => d.name);
export const OBJECT_MORE_COLUMNS: readonly string[] = objectMoreColumns(OBJECT_FIELDS);

/** Page sizes of the objects list (default 20) and the keys list (default 10). */
export const OBJECT_PAGE_SIZES = [5, 20, 100] as const;
export const KEY_PAGE_SIZES = [5, 10, 20, 50, 1000000] as const;
/** A reference number: 4 characters (digits, padded). */
export const formatReferenceNumber = (n: number) => String(n).padStart(4, '0');
