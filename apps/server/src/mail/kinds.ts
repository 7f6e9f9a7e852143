import type { TMailKind } from '@crm/contract';
import type { MailBlock } from './compose.ts';
import type { T } from '../lib/i18n.ts';

/**
 * What each kind of mail says (subject and body), given its details: the senders and the settings'
 * preview write from the same place, so the preview is what is sent.
 */
type Letter = { subject: (t: T) => string; body: (t: T) => MailBlock[] };

export const MAIL_LETTERS = {
  reset: (d: { link: string; hours: number; payments: boolean }): Letter => ({
    subject: (t) => t(d.payments ? 'mail.reset.subjectPayments' : 'mail.reset.subject'),
    body: (t) => [{ p: t('mail.reset.body', { hours: d.hours }) }, { link: d.link, label: t('mail.reset.button') }, { note: t('mail.reset.ignore') }],
  }),
  invite: (d: { link: string; days: number; url: string; email: string }): Letter => ({
    subject: (t) => t('mail.invite.subject'),
    body: (t) => [{ p: t('mail.invite.body') }, { link: d.link, label: t('mail.invite.button') }, { note: t('mail.invite.validity', { days: d.days }) }, { p: t('mail.invite.signIn', { url: d.url, email: d.email }) }],
  }),
  paymentsInvite: (d: { link: string; days: number; url: string; email: string }): Letter => ({
    subject: (t) => t('paymentsClient.mail.invite.subject'),
    body: (t) => [
      { p: t('paymentsClient.mail.invite.body') },
      { link: d.link, label: t('mail.invite.button') },
      { note: t('paymentsClient.mail.invite.validity', { days: d.days }) },
      { p: t('paymentsClient.mail.invite.signIn', { url: d.url, email: d.email }) },
    ],
  }),
  approval: (d: { link: string; days: number; amount: string; date: string; categoryId: number | null }): Letter => ({
    subject: (t) => t('paymentsClient.mail.approval.subject', { amount: d.amount }),
    body: (t) => [
      { p: t('paymentsClient.mail.approval.body', { category: d.categoryId === null ? '' : t(`payments.category.${d.categoryId}`), amount: d.amount, date: d.date }) },
      { link: d.link, label: t('mail.approval.button') },
      { note: t('paymentsClient.mail.approval.validity', { days: d.days }) },
    ],
  }),
  shortlist: (d: { link: string; days: number; lines: string[] }): Letter => ({
    subject: (t) => t('shortlist.mail.subject'),
    body: (t) => [{ p: t('mail.shortlist.intro') }, { list: d.lines }, { p: t('shortlist.mail.link') }, { link: d.link, label: t('mail.shortlist.button') }, { note: t('shortlist.mail.validity', { days: d.days }) }],
  }),
  alert: (d: { subjectKey: string; messageKey: string; params: Record<string, string | number>; links: { url: string; labelKey: string }[] }): Letter => ({
    subject: (t) => t(d.subjectKey, d.params),
    body: (t) => [{ p: t(d.messageKey, d.params) }, ...d.links.map((l) => ({ link: l.url, label: t(l.labelKey) }))],
  }),
} satisfies Record<TMailKind, (d: never) => Letter>;
