import type { FastifyInstance } from 'fastify';
import type { TCulture, TMailKind, TMailPreview } from '@crm/contract';
import { LOGO_CID, composeMail, type MailAgent } from './compose.ts';
import { linkBase, paymentsLinkBase } from '../modules/settings/site-settings.service.ts';
import type { TRecipient } from './greeting.ts';
import { MAIL_LETTERS } from './kinds.ts';
import { readAgencyIdentity, readMailAgent } from './mail-people.ts';

/** Made-up people of each language: a client greeted in its grammar, an agent when the admin has no name on record. */
const SAMPLE: Record<TCulture, { client: TRecipient; agent: MailAgent; amount: string; date: string }> = {
  el: { client: { firstName: 'Γιώργος', lastName: 'Παπαδόπουλος' }, agent: { fullName: 'Ελένη Οικονόμου', phone: '+30 697 123 4567' }, amount: '120,00 €', date: '05/03/2026' },
  ru: { client: { firstName: 'Иван', middleName: 'Петрович', lastName: 'Смирнов' }, agent: { fullName: 'Eleni Oikonomou', phone: '+30 697 123 4567' }, amount: '120,00 €', date: '05.03.2026' },
  en: { client: { firstName: 'Emma', lastName: 'Wilson' }, agent: { fullName: 'Eleni Oikonomou', phone: '+30 697 123 4567' }, amount: '120,00 €', date: '05/03/2026' },
};

/** GET /api/SiteSettings/mailPreview: a kind of mail in a language, as the CRM writes it, with made-up details. */
export async function previewMail(app: FastifyInstance, kind: TMailKind, culture: TCulture, userId: number): Promise<TMailPreview> {
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
  const s = SAMPLE[culture];
  const base = await linkBase(app);
  const payments = await paymentsLinkBase(app);
  const link = `${base}/…`;
  const letter = {
    reset: () => MAIL_LETTERS.reset({ link: `${base}/ResetPassword?code=…`, hours: 24, payments: false }),
    invite: () => MAIL_LETTERS.invite({ link: `${base}/ResetPassword?code=…`, days: 7, url: base, email: 'eleni@example.gr' }),
    paymentsInvite: () => MAIL_LETTERS.paymentsInvite({ link: `${payments}/ResetPassword?code=…`, days: 14, url: payments, email: 'client@example.gr' }),
    approval: () => MAIL_LETTERS.approval({ link: `${payments}/Payments/ApproveExpense/1?token=…`, days: 14, amount: s.amount, date: s.date, categoryId: null }),
    shortlist: () => MAIL_LETTERS.shortlist({ link: `${base}/Shortlist/…`, days: 14, lines: [`${t('mail.preview.sampleFlat')} — 185 000 €`, `${t('mail.preview.sampleHouse')} — 1 200 € ${t('publishing.per.rent')}`] }),
    alert: () => MAIL_LETTERS.alert({ subjectKey: 'alerts.mail.rentSubject', messageKey: 'alerts.msg.rentDueIn', params: { ref: '0042', tenant: s.client.lastName ?? '', date: s.date, days: 3, count: 3 }, links: [{ url: link, labelKey: 'mail.alert.openProperty' }] }),
  }[kind]();
  const agent = (await readMailAgent(app.db, userId, culture)) ?? s.agent;
  const staff = kind === 'reset' || kind === 'alert';
  const agency = await readAgencyIdentity(app);
  const mail = composeMail({ to: 'preview@example.gr', culture, t, agency, agent: staff ? null : agent, recipient: s.client, subject: letter.subject(t), body: letter.body(t) });
  // The preview's frame has no mail attached: the logo is shown from its bytes where the mail names its part.
  const html = agency.logo ? (mail.html ?? '').replaceAll(`cid:${LOGO_CID}`, `data:${agency.logo.contentType};base64,${agency.logo.base64}`) : (mail.html ?? '');
  return { fromName: mail.fromName ?? '', subject: mail.subject, html, text: mail.text };
}
