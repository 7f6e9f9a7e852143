import type { TApiKeyArea, TApiKeyScopes } from '@crm/contract';

/**
 * Which area of the API a call belongs to, for API keys (decision 080): a key reaches a call only
 * when its scopes give that area, at the level the call needs (a read, or a write). Calls of no
 * area (settings, sign-ins, users, the action log, imports, backups, jobs, alerts, files,
 * a person's data and its erasure) are refused to every key. docs/access.md shows
 * each route's area in its "API key" column; access-table.test.ts compares the two.
 */
const AREAS: readonly [RegExp, TApiKeyArea | null][] = [
  // A person's data and its erasure, and a client's sign-in: an office admin's own acts.
  [/^\/api\/account\/(?:erase|personal-data)\//i, null],
  [/^\/api\/transactions\/(?:sendInvitation|statement|approveExpense|revertApprovalExpense|viewExpense)\b/i, null],
  [/^\/api\/(?:account|owner|professional|partners|clients|source|employe)(?:\/|$)/i, 'accounts'],
  [/^\/api\/(?:object|objectAccount|ObjectKeys|location)(?:\/|$)/i, 'properties'],
  [/^\/api\/(?:lead|Viewing)(?:\/|$)/i, 'leads'],
  // Short lets are the deals of the rental side.
  [/^\/api\/(?:Deal|Reservation)(?:\/|$)/i, 'deals'],
  [/^\/api\/transactions(?:\/|$)/i, 'payments'],
];

/** The generic single-field calls (`/api/:entity/...`): the area of the entity named. */
const ENTITY_AREAS: Record<string, TApiKeyArea> = { account: 'accounts', object: 'properties', lead: 'leads', deal: 'deals' };

/** Calls that read although they are POSTs (a search's filters in the body); a GET that makes a record (`/add`) writes. */
const READING_POST = /\/(?:search|searchQuick|board|download|availability)$|^\/api\/(?:object|partners)$/i;

export type KeyArea = { area: TApiKeyArea | 'entity'; write: boolean };

/** The area and level of a registered route (its pattern, as the access table lists it); null: no key may call it. */
export function keyAreaOf(method: string, url: string): KeyArea | null {
  const write = method === 'GET' ? /\/add$/i.test(url) : !READING_POST.test(url);
  if (/^\/api\/:entity\//.test(url)) return { area: 'entity', write };
  for (const [re, area] of AREAS) if (re.test(url)) return area ? { area, write } : null;
  return null;
}

/** The area of a `:entity` route's entity (account, object, lead, deal), else null. */
export function entityArea(entity: string | undefined): TApiKeyArea | null {
  return ENTITY_AREAS[(entity ?? '').toLowerCase()] ?? null;
}

/** What the access table's "API key" column says of a route: `accounts read`, `leads write`, `by :entity write`, or —. */
export function keyColumn(method: string, url: string): string {
  const a = keyAreaOf(method, url);
  if (!a) return '—';
  return `${a.area === 'entity' ? 'by :entity' : a.area} ${a.write ? 'write' : 'read'}`;
}

/** Whether scopes allow an area at a level (write includes read). */
export function scopeAllows(scopes: TApiKeyScopes, area: TApiKeyArea, write: boolean): boolean {
  const level = scopes[area];
  return level === 'write' || (!write && level === 'read');
}
