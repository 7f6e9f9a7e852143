import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { WEBHOOK_RECORDS, ZAccount, ZDeal, ZExpenseForm, ZIncomeForm, ZLead, ZRealtyObject, ZReservation, ZViewing, type TWebhookRecord } from '@crm/contract';
import { transactions } from '../../db/schema/index.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { getAccountDto } from '../accounts/accounts.service.ts';
import { getObjectDto } from '../objects/objects.service.ts';
import { getLeadDto } from '../leads/leads.service.ts';
import { getViewing } from '../leads/viewings.service.ts';
import { getDeal } from '../deals/deals.service.ts';
import { getReservation } from '../reservations/reservations.service.ts';
import { transactionForm } from '../payments/payments.service.ts';

/** Who reads a record for a webhook: the office (webhooks are made by office administrators). */
const OFFICE: SessionUser = { id: 0, sessionId: 0, email: '', username: 'webhooks', roles: ['admin'], branchId: null, language: null, accountId: null };

type Reader = (app: FastifyInstance, id: number) => Promise<unknown>;
/** A reader whose answer goes out as its contract's schema writes it (the fields the API sends, no more). */
const as =
  (schema: ZodType, read: Reader): Reader =>
  async (app, id) => {
    const got = await read(app, id);
    return got === undefined || got === null ? null : schema.parse(got);
  };

/** The schema each record's `current` is written in (the payment's: its form, without the choice lists). */
export const RECORD_SCHEMAS: Record<TWebhookRecord, ZodType> = {
  account: ZAccount,
  property: ZRealtyObject,
  lead: ZLead,
  viewing: ZViewing,
  deal: ZDeal,
  reservation: ZReservation,
  payment: z.union([ZIncomeForm.omit({ lists: true, canEdit: true }).extend({ type: z.literal('income') }), ZExpenseForm.omit({ lists: true, canEdit: true }).extend({ type: z.literal('expense') })]),
};

/** Each record's reader: the record, in English, as the API's call that shows it answers it (without the choice lists a form needs). */
const READERS: Record<TWebhookRecord, Reader> = {
  account: as(RECORD_SCHEMAS.account, (app, id) => getAccountDto(app, app.db, id, 'en')),
  property: as(RECORD_SCHEMAS.property, (app, id) => getObjectDto(app.db, { culture: 'en', t: t(app), timeZone: app.config.timeZone }, id)),
  lead: as(RECORD_SCHEMAS.lead, (app, id) => getLeadDto(app, app.db, id, 'en', t(app))),
  viewing: as(RECORD_SCHEMAS.viewing, (app, id) => getViewing(app, app.db, id, t(app), 'en')),
  deal: as(RECORD_SCHEMAS.deal, (app, id) => getDeal(app, app.db, id, t(app), 'en')),
  reservation: as(RECORD_SCHEMAS.reservation, (app, id) => getReservation(app, app.db, id, t(app), 'en')),
  payment: async (app, id) => {
    const [row] = await app.db.select({ type: transactions.type }).from(transactions).where(eq(transactions.id, id));
    if (!row) return null;
    const type = row.type === 'expense' ? 'expense' : 'income';
    return RECORD_SCHEMAS.payment.parse({ type, ...(await transactionForm(app, app.db, OFFICE, type, id, t(app), 'en')) });
  },
};

const t = (app: FastifyInstance) => (key: string, params?: Record<string, string | number>) => app.translator.t('en', key, params);
const RECORD_OF_ENTITY = new Map<string, TWebhookRecord>(Object.entries(WEBHOOK_RECORDS).map(([record, entity]) => [entity, record as TWebhookRecord]));

/**
 * The record of a delivery as the API answers it when it is sent (decision 080), or null when it
 * is gone (deleted, erased) or the event tells a deletion. A receiver that was down gets the record
 * as it is now; the change logged at the time is the delivery's `data`.
 */
export async function currentRecord(app: FastifyInstance, entity: string, id: number | null, event: string): Promise<unknown> {
  const record = RECORD_OF_ENTITY.get(entity);
  if (!record || id === null || event.endsWith('.deleted')) return null;
  try {
    return (await READERS[record](app, id)) ?? null;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return null;
    throw e;
  }
}
