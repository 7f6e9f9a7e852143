import { Readable } from 'node:stream';
import type { TCulture } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { escapeXml as x } from './html.ts';
import { allPublic } from './public.service.ts';
import { objectUrl, photoUrl, type TPublicObject } from './public.view.ts';
import type { T } from '../../lib/i18n.ts';


const SERVICE_TAG = { sale: 'sale', rent: 'rent', shortRent: 'short-rent' } as const;

/**
 * The energy class as portals read it: the certificate's class in Latin letters (A+ … G, the Greek
 * scale's Α+ … Η), `exempt`, or `pending` (certificate applied for), never the reader's label
 * ("Εξαιρείται", "Γ"). By the list's values (object-fields.ts, OBJECT_LISTS.energyClass).
 */
export const ENERGY_CLASS_CODE: Readonly<Record<number, string>> = {
  1: 'A+',
  2: 'A',
  3: 'B+',
  4: 'B',
  5: 'C',
  6: 'D',
  7: 'E',
  8: 'F',
  9: 'G',
  10: 'exempt',
  11: 'pending',
};

/**
 * One <listing> of the portal feed: the public view of the object, nothing more. Its title and
 * description once for each language the property has one in, each marked with the language of
 * its words (a Greek title is lang="el" in a feed asked for in English; no English one is made up);
 * the labels (type, place, facts) in the feed's language (`culture`, the <listings> element's lang).
 * `base`: the public address (linkBase: the setting, else PUBLIC_URL), so every address in it is absolute.
 */
export function listingXml(o: TPublicObject, base: string, culture: TCulture): string {
  const lines: string[] = [];
  const tag = (name: string, value: unknown, attrs = '') => {
    if (value === null || value === undefined || value === '') return;
    lines.push(`    <${name}${attrs}>${x(String(value))}</${name}>`);
  };
  lines.push(`  <listing ref="${x(o.ref)}"${o.updated ? ` updated="${x(o.updated)}"` : ''}>`);
  tag('url', `${base}${objectUrl(culture, o.ref)}`);
  for (const title of o.texts.titles) tag('title', title.text, ` lang="${title.lang}"`);
  for (const description of o.texts.descriptions) tag('description', description.text, ` lang="${description.lang}"`);
  tag('type', o.type, `${o.typeId ? ` typeId="${o.typeId}"` : ''}${o.subTypeId ? ` subTypeId="${o.subTypeId}"` : ''}`);
  for (const p of o.prices) tag('price', p.price.toFixed(0), ` service="${SERVICE_TAG[p.service]}" currency="EUR"${p.was !== null ? ` was="${p.was.toFixed(0)}"` : ''}`);
  tag('sharedExpenses', o.sharedExpenses?.toFixed(0), ' currency="EUR" period="month"');
  tag('location', o.place);
  tag('address', o.address);
  if (o.map?.kind === 'point') lines.push(`    <point latitude="${o.map.latitude}" longitude="${o.map.longitude}"/>`);
  if (o.map?.kind === 'circle') lines.push(`    <approximateArea latitude="${o.map.latitude}" longitude="${o.map.longitude}" radius="${o.map.radius}"/>`);
  for (const f of o.facts) tag(f.key, f.key === 'energyClass' ? (o.energyClass !== null ? ENERGY_CLASS_CODE[o.energyClass] : undefined) : f.value);
  if (o.features.length) lines.push(`    <features>${o.features.map((f) => `<feature>${x(f)}</feature>`).join('')}</features>`);
  if (o.photos.length) lines.push(`    <photos>${o.photos.map((p) => `<photo>${x(`${base}${photoUrl(p, 'web')}`)}</photo>`).join('')}</photos>`);
  tag('video', o.videoURL);
  lines.push('  </listing>');
  return lines.join('\n') + '\n';
}

/** GET /feed/listings.xml: every published object, written as it is read (500 at a time), under the agency's name from Settings. */
export function feedStream(db: Db, base: string, culture: TCulture, t: T, agency = t('publishing.site.name')): Readable {
  async function* chunks() {
    yield `<?xml version="1.0" encoding="UTF-8"?>\n<listings generated="${new Date().toISOString()}" lang="${culture}" agency="${x(agency)}">\n`;
    for await (const o of allPublic(db, culture, t)) yield listingXml(o, base, culture);
    yield '</listings>\n';
  }
  return Readable.from(chunks());
}
