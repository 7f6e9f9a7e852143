import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { TClientMessage, TCulture } from '@crm/contract';
import { greetingLine, type TGender } from '../../mail/greeting.ts';
import { notFound } from '../../lib/errors.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { agencyIdentity, staffFullName } from '../settings/site-settings.service.ts';
import { locationText } from '../locations/locations.service.ts';
import { refDigitsOfO } from '../../lib/reference-number.ts';

/** The client's language as the message's: Greek and Russian as they are, any other in English; none, Greek. */
const messageCulture = (language: string | null): TCulture => (!language || language === 'el' ? 'el' : language === 'ru' ? 'ru' : 'en');
const DATE_LOCALE: Record<TCulture, string> = { en: 'en-GB', el: 'el-GR', ru: 'ru-RU' };

type Client = { first_name: string | null; last_name: string | null; middle_name: string | null; gender: TGender | null; language: string | null };

/**
 * GET /api/account/:id/messageText: what an agent sends a client by Viber, WhatsApp or SMS, in the
 * client's language with its greeting's grammar (Greek vocative, Russian name and patronymic) and
 * the agent's name and the agency's: from a viewing of the client's, its confirmation (day, time,
 * the properties' addresses); otherwise a greeting.
 */
export async function clientMessage(app: FastifyInstance, userId: number, accountId: number, viewingId: number | undefined): Promise<TClientMessage> {
  const res = await app.db.execute(sql`select first_name, last_name, middle_name, gender, language from accounts where id = ${accountId} and erased_on is null`);
  const client = res.rows[0] as Client | undefined;
  if (!client) throw notFound();
  const culture = messageCulture(client.language);
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
  const identity = await agencyIdentity(app);
  const sign = {
    greet: greetingLine(culture, { firstName: client.first_name, lastName: client.last_name, middleName: client.middle_name, gender: client.gender }, t),
    agent: (await staffFullName(app.db, userId)) ?? '',
    agency: identity.nameIn(culture, t('publishing.site.name')),
  };
  if (viewingId === undefined) return { culture, text: t('icalfeed.message.greeting', sign).trim() };
  const v = await app.db.execute(sql`
    select v.date_of_viewing,
      (select string_agg(coalesce(nullif(concat_ws(', ', nullif(btrim(o.address), ''), ${locationText(sql`o.location_id`, culture)}), ''), '#' || ${refDigitsOfO}), '; ' order by vo.position)
         from viewing_objects vo join objects o on o.id = vo.object_id where vo.viewing_id = v.id) as place
    from viewings v join leads l on l.id = v.demand_id and l.account_id = ${accountId}
    where v.id = ${viewingId} and v.date_of_viewing is not null and v.date_of_viewing >= now() and v.result is distinct from 6`);
  const row = v.rows[0] as { date_of_viewing: string; place: string | null } | undefined;
  if (!row) throw notFound();
  const local = toLocalDateTime(new Date(row.date_of_viewing), app.config.timeZone)!;
  const [y, m, d] = local.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Intl.DateTimeFormat(DATE_LOCALE[culture], { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
  return { culture, text: t('icalfeed.message.viewing', { ...sign, date, time: local.slice(11, 16), place: row.place ?? '' }).trim() };
}

