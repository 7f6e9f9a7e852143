import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { cultureOf, formatReferenceNumber, type TCulture, type TViewingSheet } from '@crm/contract';
import { notFound } from '../../lib/errors.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { limitAsWritten } from '../../lib/i18n.ts';
import { agencyIdentity } from '../settings/site-settings.service.ts';
import { locationText } from '../locations/locations.service.ts';
import { formatEuro } from './leads.service.ts';
import { ASSIGNMENT_PARENT_VIEWING } from './viewings.service.ts';

type Row = Record<string, unknown>;

/** The sheet's labels (`viewings.sheet.<name>`), sent in the sheet's language. */
const LABELS = [
  'title', 'number', 'dateOfViewing', 'licence', 'taxNumber', 'taxOffice', 'phone', 'email', 'client', 'fullName', 'idNumber', 'agent',
  'objects', 'referenceNumber', 'type', 'location', 'area', 'price', 'declarationTitle', 'place', 'date', 'clientSigns', 'agencySigns', 'signature',
] as const;

/** The price of an object for each service a lead may ask for, and which of them a lead asks for. */
const SERVICES = [
  { lead: 'for_purchase', object: 'for_sale', price: 'sale_price', key: 'sale' },
  { lead: 'for_rent', object: 'for_rent', price: 'rent_price', key: 'rent' },
  { lead: 'for_short_rent', object: 'for_short_rent', price: 'short_rent_price', key: 'shortRent' },
] as const;

/** "dd/mm/yyyy, HH:MM" from the office's local "yyyy-mm-ddTHH:MM" (Russian writes dd.mm.yyyy). */
function dayAndTime(local: string | null, culture: TCulture): string | null {
  const m = local && /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (!m) return null;
  const sep = culture === 'ru' ? '.' : '/';
  return `${m[3]}${sep}${m[2]}${sep}${m[1]}, ${m[4]}:${m[5]}`;
}

/** A fee number as the sheet writes it: "2", "1,5" (decimal comma in all three languages, as the screens). */
const feeText = (n: number) => limitAsWritten(Math.round(n * 100) / 100);

/**
 * GET /api/Viewing/{id}/sheet (decision 044): what the viewing sheet shows, in `asked` or else the
 * client's account language when it is one of the interface's, else the reader's. Read only: nothing
 * is stored or logged.
 */
export async function viewingSheet(app: FastifyInstance, id: number, asked: TCulture | undefined, readerCulture: TCulture): Promise<TViewingSheet> {
  const head = await app.db.execute(sql`
    select v.id, v.date_of_viewing, l.for_purchase, l.for_rent, l.for_short_rent,
      a.id as account_id, a.display_name, a.first_name, a.middle_name, a.last_name, a.name as company_name, a.is_company,
      a.phones, a.emails, a.internal_passport_number, a.passport_number, a.language,
      (select string_agg(coalesce(nullif(concat_ws(' ', nullif(trim(x.first_name), ''), nullif(trim(x.last_name), '')), ''), x.display_name), ', ' order by x.display_name) from assignments s join accounts x on x.id = s.account_id
        where s.parent = ${ASSIGNMENT_PARENT_VIEWING} and s.parent_id = v.id) as agents
    from viewings v left join leads l on l.id = v.demand_id left join accounts a on a.id = l.account_id
    where v.id = ${id}`);
  const v = head.rows[0] as Row | undefined;
  if (!v) throw notFound('viewings.notFound');
  const accountLanguage = typeof v.language === 'string' ? v.language.trim() : '';
  const culture: TCulture = asked ?? (['en', 'el', 'ru'].includes(accountLanguage) ? cultureOf(accountLanguage) : readerCulture);
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);

  const asked_ = SERVICES.filter((s) => v[s.lead] === true);
  const rows = (
    await app.db.execute(sql`
      select o.reference_number, o.object_sub_type_id, o.area, o.for_sale, o.sale_price, o.for_rent, o.rent_price, o.for_short_rent, o.short_rent_price,
        ${locationText(sql`o.location_id`, culture)} as location
      from viewing_objects vo join objects o on o.id = vo.object_id
      where vo.viewing_id = ${id} order by vo.position`)
  ).rows as Row[];
  const objects = rows.map((o) => {
    // The price of the service the lead asks for; without a lead (or none it asks for offered), the first one offered.
    const svc = asked_.find((s) => o[s.object] === true && o[s.price] != null) ?? SERVICES.find((s) => o[s.object] === true && o[s.price] != null);
    const euros = svc ? formatEuro(Number(o[svc.price])) : null;
    const price = svc && euros ? (svc.key === 'sale' ? euros : t(`viewings.sheet.priceOf.${svc.key}`, { price: euros })) : null;
    return {
      referenceNumber: formatReferenceNumber(o.reference_number as number),
      type: o.object_sub_type_id != null ? t(`objects.list.objectSubTypes.${o.object_sub_type_id}`) : null,
      location: (o.location as string | null) ?? null,
      area: o.area == null ? null : `${limitAsWritten(Number(o.area))}\u00a0m²`,
      price,
    };
  });

  // One read of the agency's settings: its names, numbers, contacts and fees.
  const s = await agencyIdentity(app);
  const identity = s;
  const agencyName = identity.nameIn(culture, t('publishing.site.name'));
  // The fee terms of the services the lead asks for (both when there is no lead or it asks for neither); a term not set is a blank to fill in.
  const blank = '______';
  const sale = t('viewings.sheet.fee.sale', { percent: s.saleFeePercent == null ? blank : feeText(s.saleFeePercent) });
  const rent =
    s.rentFeeMonths === 1 ? t('viewings.sheet.fee.rentOneMonth') : t('viewings.sheet.fee.rent', { months: s.rentFeeMonths == null ? blank : feeText(s.rentFeeMonths) });
  const buys = asked_.some((x) => x.key === 'sale');
  const rents = asked_.some((x) => x.key !== 'sale');
  const terms = buys && !rents ? sale : rents && !buys ? rent : t('viewings.sheet.fee.both', { sale, rent });
  const declaration = t('viewings.sheet.declaration', { agency: agencyName, terms });

  const individualName = [v.first_name, v.middle_name, v.last_name].filter((x) => typeof x === 'string' && x.trim()).join(' ');
  const clientName = v.account_id == null ? null : v.is_company === true && v.company_name ? (v.company_name as string) : individualName || ((v.display_name as string | null) ?? null);
  const first = (list: unknown) => (Array.isArray(list) ? ((list as string[]).map((x) => x.trim()).find(Boolean) ?? null) : null);
  const texts: Record<string, string> = {};
  for (const k of LABELS) texts[k] = t(`viewings.sheet.${k}`);
  return {
    culture,
    viewingNumber: String(v.id),
    dateOfViewing: dayAndTime(toLocalDateTime(v.date_of_viewing == null ? null : new Date(v.date_of_viewing as string), app.config.timeZone), culture),
    agency: { name: agencyName, address: s.address, phone: s.phone, email: s.email, licence: s.licence, taxNumber: s.taxNumber, taxOffice: s.taxOffice, website: s.website, logo: identity.logoPath },
    client: {
      name: clientName,
      phone: first(v.phones),
      email: first(v.emails),
      idNumber: ((v.internal_passport_number as string | null) || (v.passport_number as string | null)) ?? null,
    },
    agents: (v.agents as string | null) ?? null,
    objects,
    declaration,
    texts,
  };
}
