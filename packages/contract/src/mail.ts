import { z } from 'zod';
import { byId, listAnswer, queryPaging, ZId, ZIdParam, ZIdString, ZOk, ZVersion } from './common.ts';
import type { CallSchemas } from './call.ts';

/**
 * The agency's mailboxes and the mail synced from them onto the records (issue 46, decision 078).
 * A mailbox's passwords are write-only: an answer says only whether one is set.
 */
import { CULTURES, MAIL_PAGE_MAX, MAIL_SIGNATURE_MAX, MAIL_SYNC_MONTHS_DEFAULT, MAIL_SYNC_MONTHS_MAX } from './constants.ts';
import { MAIL_TEMPLATES } from './doc-template-kinds.ts';
import { ACTIVITY_DONE_FILTERS, ZActivity } from './activities.ts';
import { SHOW_ALL, TIMELINE_KINDS } from './constants.ts';
const ZHost = z.string().trim().min(1).max(253).regex(/^[A-Za-z0-9.\-:[\]]+$/, { message: 'validation.invalid' });
const ZPort = z.number().int().min(1).max(65535);
const ZSecret = z.string().max(1000);

/** The step of a connection that failed (the test's answer, a sync's last error). */
export const MAIL_FAILURE_STEPS = ['host', 'tls', 'signIn', 'folder', 'send', 'other'] as const;
export type TMailFailureStep = (typeof MAIL_FAILURE_STEPS)[number];

export const ZMailbox = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.string(),
  /** The sign-in whose own mailbox it is; null: the office's shared one. */
  ownerId: z.number().int().nullable(),
  ownerName: z.string().nullable(),
  imapHost: z.string(),
  imapPort: z.number().int(),
  imapTls: z.boolean(),
  imapUser: z.string(),
  imapFolder: z.string(),
  imapPasswordSet: z.boolean(),
  smtpHost: z.string().nullable(),
  smtpPort: z.number().int().nullable(),
  smtpTls: z.boolean(),
  smtpUser: z.string().nullable(),
  smtpPasswordSet: z.boolean(),
  syncMonths: z.number().int(),
  active: z.boolean(),
  lastSyncOn: z.string().nullable(),
  /** The step the last sync failed at (MAIL_FAILURE_STEPS), null when it went through. */
  lastSyncError: z.enum(MAIL_FAILURE_STEPS).nullable(),
  messages: z.number().int(),
  /** Put under every mail written in the CRM from this mailbox (new mail and replies); one text, in whatever languages the agency writes it. */
  signature: z.string(),
  version: z.number().int(),
});
export type TMailbox = z.infer<typeof ZMailbox>;

export const ZMailboxOwner = z.object({ id: z.number().int(), name: z.string() });
export const ZMailboxListAnswer = z.object({
  items: z.array(ZMailbox),
  /** The sign-ins a mailbox may belong to (office admins only; empty for others). */
  owners: z.array(ZMailboxOwner),
  /** Whether mailboxes can be saved: false when the server has no key to encrypt their passwords. */
  canStore: z.boolean(),
});
export type TMailboxListAnswer = z.infer<typeof ZMailboxListAnswer>;

/**
 * POST /api/mailboxes/update: creates (no id) or changes a mailbox. A password left out or empty
 * keeps the stored one (a new mailbox needs its IMAP password).
 */
export const ZMailboxSave = z.object({
  id: ZId.optional(),
  version: ZVersion,
  name: z.string().trim().min(1).max(100),
  address: z.string().trim().toLowerCase().email().max(254),
  ownerId: ZId.nullable(),
  imapHost: ZHost,
  imapPort: ZPort,
  imapTls: z.boolean(),
  imapUser: z.string().trim().min(1).max(254),
  imapPassword: ZSecret.optional(),
  imapFolder: z.string().trim().min(1).max(200).default('INBOX'),
  smtpHost: ZHost.nullable().optional(),
  smtpPort: ZPort.nullable().optional(),
  smtpTls: z.boolean().default(false),
  smtpUser: z.string().trim().max(254).nullable().optional(),
  smtpPassword: ZSecret.optional(),
  syncMonths: z.number().int().min(1).max(MAIL_SYNC_MONTHS_MAX).default(MAIL_SYNC_MONTHS_DEFAULT),
  active: z.boolean().default(true),
  signature: z.string().max(MAIL_SIGNATURE_MAX).default(''),
});
export type TMailboxSave = z.infer<typeof ZMailboxSave>;
export type TMailboxSaveInput = z.input<typeof ZMailboxSave>;

/** One side of a connection test: the step that failed, said in the reader's language, and the server's own words. */
export const ZMailStepResult = z.object({ ok: z.boolean(), step: z.enum(MAIL_FAILURE_STEPS).nullable(), message: z.string().nullable(), detail: z.string().nullable() });
/** POST /api/mailboxes/test: the form as it stands (a stored mailbox's passwords are used where none is typed). */
export const ZMailboxTestAnswer = z.object({
  ok: z.boolean(),
  /** What was tried: IMAP (host, TLS, sign-in, folder), then SMTP when a host is given. */
  imap: ZMailStepResult,
  smtp: ZMailStepResult.nullable(),
});
export type TMailboxTestAnswer = z.infer<typeof ZMailboxTestAnswer>;

export const ZMailAddress = z.object({ address: z.string(), name: z.string() });
export const ZMailAttachment = z.object({ id: z.number().int(), name: z.string(), mime: z.string(), size: z.number().int() });
export const ZMailRow = z.object({
  id: z.number().int(),
  mailboxId: z.number().int(),
  mailbox: z.string(),
  subject: z.string(),
  from: ZMailAddress.nullable(),
  to: z.array(ZMailAddress),
  cc: z.array(ZMailAddress),
  date: z.string().nullable(),
  /** The first words of the text. */
  snippet: z.string(),
  attachments: z.array(ZMailAttachment),
});
export type TMailRow = z.infer<typeof ZMailRow>;
export const ZMailMessage = ZMailRow.extend({
  text: z.string(),
  /** Sanitised HTML (no scripts, forms or styles that reach out; remote images as data-src, blocked), null for a plain-text mail. */
  html: z.string().nullable(),
  /** How many remote images the HTML had (blocked until asked). */
  remoteImages: z.number().int(),
  messageId: z.string(),
  /** The sender when the CRM knows no account of that address (nor is it a mailbox): "new contact?", with the name and phone found in the signature. */
  newContact: z.object({ address: z.string(), name: z.string().nullable(), phone: z.string().nullable() }).nullable(),
});
export type TMailMessage = z.infer<typeof ZMailMessage>;

/**
 * GET /api/mail: the mail of one account, one property or one lead (its thread: the enquiry it was
 * made from, mail written from it, the answers), of a deal (its parties' and its property's), or
 * only the enquiry mail a lead was made from (decision 082), newest first.
 */
export const ZMailListQuery = z
  .object({
    accountId: ZIdString.optional(),
    objectId: ZIdString.optional(),
    leadId: ZIdString.optional(),
    dealId: ZIdString.optional(),
    enquiryOf: ZIdString.optional(),
    ...queryPaging(MAIL_PAGE_MAX),
  })
  .refine((q) => [q.accountId, q.objectId, q.leadId, q.dealId, q.enquiryOf].filter((x) => x != null).length === 1, { message: 'validation.invalid', path: ['accountId'] });
export type TMailListQuery = z.input<typeof ZMailListQuery>;
export const ZMailListAnswer = listAnswer(ZMailRow);


/**
 * GET /api/mail/timeline: an account's, a property's, a lead's or a deal's activities and the mail
 * its thread holds (as GET /api/mail reads it: the reader's mailboxes only), newest first (an
 * activity by when it was made, a mail by its date; undated mail last). `done` keeps only
 * activities of that state (mail has none); `text` looks in an activity's text and a mail's
 * subject and sender. A page with mail in it (`kind` not `activities`) holds at most
 * MAIL_PAGE_MAX rows, as a page of GET /api/mail does; the activities alone may be shown all.
 */
export const ZTimelineQuery = z
  .object({
    accountId: ZIdString.optional(),
    objectId: ZIdString.optional(),
    leadId: ZIdString.optional(),
    dealId: ZIdString.optional(),
    kind: z.enum(TIMELINE_KINDS).default('all'),
    done: z.enum(ACTIVITY_DONE_FILTERS).default('all'),
    text: z.string().max(200).default(''),
    ...queryPaging(SHOW_ALL),
  })
  .refine((q) => [q.accountId, q.objectId, q.leadId, q.dealId].filter((x) => x != null).length === 1, { message: 'validation.invalid', path: ['accountId'] })
  .superRefine((q, ctx) => {
    if (q.kind !== 'activities' && q.perPage > MAIL_PAGE_MAX)
      ctx.addIssue({ code: 'too_big', origin: 'number', maximum: MAIL_PAGE_MAX, inclusive: true, input: q.perPage, path: ['perPage'], message: 'activities.timeline.perPageMax' });
  });
export type TTimelineQuery = z.input<typeof ZTimelineQuery>;
export const ZTimelineItem = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('activity'), activity: ZActivity }),
  z.object({ kind: z.literal('mail'), mail: ZMailRow }),
]);
export type TTimelineItem = z.infer<typeof ZTimelineItem>;
export const ZTimelineAnswer = listAnswer(ZTimelineItem);
export type TTimelineAnswer = z.infer<typeof ZTimelineAnswer>;

/** POST /api/mail/{id}/reply: the reply's own words (the original is quoted below them); `all`: to everyone the message went to. */
export const ZMailReply = z.object({ text: z.string().trim().min(1).max(20000), all: z.boolean().default(false) });
export type TMailReply = z.infer<typeof ZMailReply>;

/**
 * GET /api/mail/draft: a new mail from an account's, a property's, a lead's or a deal's view: to whom
 * (the client; the owners; the lead's client; the deal's parties), and the agency's mail texts filled
 * in the recipient's language (a lead's texts name its first property, a deal's its property).
 */
export const ZMailDraftQuery = z
  .object({ accountId: ZIdString.optional(), objectId: ZIdString.optional(), leadId: ZIdString.optional(), dealId: ZIdString.optional() })
  .refine((q) => [q.accountId, q.objectId, q.leadId, q.dealId].filter((x) => x != null).length === 1, { message: 'validation.invalid', path: ['accountId'] });
export const ZMailTemplateFilled = z.object({ kind: z.enum(MAIL_TEMPLATES), subject: z.string(), text: z.string() });
export const ZMailDraft = z.object({
  /** The recipient's language (the account's; a property's first owner's), the texts' language. */
  culture: z.enum(CULTURES),
  to: z.array(ZMailAddress),
  templates: z.array(ZMailTemplateFilled),
});
export type TMailDraft = z.infer<typeof ZMailDraft>;

const ZRecipients = z.array(z.string().trim().toLowerCase().email().max(254)).max(20);
/** POST /api/mail/send: a new mail from a mailbox the sender may use, kept on the record it was written from (and any its addresses and reference numbers name). */
export const ZMailCompose = z
  .object({
    mailboxId: ZId,
    to: ZRecipients.min(1),
    cc: ZRecipients.default([]),
    subject: z.string().trim().min(1).max(300),
    text: z.string().trim().min(1).max(20000),
    accountId: ZId.optional(),
    objectId: ZId.optional(),
    /** Written from a lead's view: kept on the lead's thread. */
    leadId: ZId.optional(),
    /** Written from a deal's view: kept on the deal's property (and the parties its addresses name). */
    dealId: ZId.optional(),
  })
  .refine((b) => [b.accountId, b.objectId, b.leadId, b.dealId].filter((x) => x != null).length <= 1, { message: 'validation.invalid', path: ['objectId'] });
export type TMailCompose = z.input<typeof ZMailCompose>;

/**
 * POST /api/mail/attachment/{id}/save: the attachment copied into the files of the record it is read
 * on: an account's or a property's own; read on a lead, its client's (the lead has no files of its
 * own); read on a deal, its property's (decision 095).
 */
export const ZMailAttachmentSave = z
  .object({ accountId: ZId.optional(), objectId: ZId.optional(), leadId: ZId.optional(), dealId: ZId.optional() })
  .refine((b) => [b.accountId, b.objectId, b.leadId, b.dealId].filter((x) => x != null).length === 1, { message: 'validation.invalid', path: ['accountId'] });
/**
 * The file the attachment is on the record; `alreadySaved`: it was there before this call (a second
 * click). `savedTo`: whose files hold it (the lead's client, the deal's property), by name.
 */
export const ZMailAttachmentSaved = z.object({
  fileId: z.number().int(),
  name: z.string(),
  alreadySaved: z.boolean(),
  savedTo: z.object({ accountId: ZId.nullable(), objectId: ZId.nullable(), name: z.string() }),
});
export type TMailAttachmentSaved = z.infer<typeof ZMailAttachmentSaved>;

export const ZMailAttachmentParams = z.object({ id: ZIdString, name: z.string().max(300) });
/** GET /api/mail/{id}/image/{n}: the n-th remote picture of a message, fetched by the server when the reader asks. */
export const ZMailImageParams = z.object({ id: ZIdString, n: z.coerce.number().int().min(0).max(999) });

/** The mailboxes' and mail's calls and their schemas (decision 057); methods and paths: `mail.resource.ts`. */
export const MAILBOX_API = {
  list: { answer: ZMailboxListAnswer },
  save: { body: ZMailboxSave, answer: ZMailbox },
  remove: byId(ZOk),
  test: { body: ZMailboxSave, answer: ZMailboxTestAnswer },
  sync: byId(ZOk),
} satisfies Record<string, CallSchemas>;

export const MAIL_API = {
  list: { query: ZMailListQuery, answer: ZMailListAnswer },
  timeline: { query: ZTimelineQuery, answer: ZTimelineAnswer },
  view: byId(ZMailMessage),
  attachment: { params: ZMailAttachmentParams },
  image: { params: ZMailImageParams },
  reply: { params: ZIdParam, body: ZMailReply, answer: ZMailRow },
  draft: { query: ZMailDraftQuery, answer: ZMailDraft },
  send: { body: ZMailCompose, answer: ZMailRow },
  saveAttachment: { params: ZIdParam, body: ZMailAttachmentSave, answer: ZMailAttachmentSaved },
} satisfies Record<string, CallSchemas>;
