import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { userRef } from './platform.ts';
import { accounts, files } from './records.ts';
import { objects } from './objects.ts';
import { leads } from './leads.ts';
import { changeStamps } from './columns.ts';
import { createdNow, linkTo, partOf, tsz } from './column-types.ts';

/** The agency's mailboxes (decision 078): passwords encrypted (lib/secret-box.ts), never answered. */
export const mailboxes = pgTable('mailboxes', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  address: text('address').notNull(),
  ownerId: userRef('owner_id'),
  imapHost: text('imap_host').notNull(),
  imapPort: integer('imap_port').notNull(),
  imapTls: boolean('imap_tls').notNull(),
  imapUser: text('imap_user').notNull(),
  imapPassword: text('imap_password').notNull(),
  imapFolder: text('imap_folder').notNull().default('INBOX'),
  smtpHost: text('smtp_host'),
  smtpPort: integer('smtp_port'),
  smtpTls: boolean('smtp_tls').notNull().default(false),
  smtpUser: text('smtp_user'),
  smtpPassword: text('smtp_password'),
  syncMonths: integer('sync_months').notNull().default(6),
  active: boolean('active').notNull().default(true),
  /** Put under every mail written in the CRM from this mailbox (0089). */
  signature: text('signature').notNull().default(''),
  uidValidity: bigint('uid_validity', { mode: 'number' }),
  lastUid: bigint('last_uid', { mode: 'number' }).notNull().default(0),
  lastSyncOn: tsz('last_sync_on'),
  lastSyncError: text('last_sync_error'),
  /** One sync of a mailbox at a time across instances: a lease, renewed while the sync makes progress, lapsing when its holder dies or hangs (decision 104). */
  syncLockedUntil: tsz('sync_locked_until'),
  /** The instance whose sync holds that lease (0109): only it renews or gives it back. */
  syncHeldBy: text('sync_held_by'),
  /** The instance that holds the mailbox's IMAP IDLE connection (decision 090), while its lease lasts. */
  idleHeldBy: text('idle_held_by'),
  idleLockedUntil: tsz('idle_locked_until'),
  version: integer('version').notNull().default(1),
  ...changeStamps(),
});

export type TMailAddressJson = { address: string; name: string };

/** One message of a mailbox, once per Message-ID; its UID as of the UIDVALIDITY it was last seen under. */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: serial('id').primaryKey(),
    mailboxId: partOf('mailbox_id', () => mailboxes.id),
    messageId: text('message_id').notNull(),
    uidValidity: bigint('uid_validity', { mode: 'number' }),
    uid: bigint('uid', { mode: 'number' }),
    inReplyTo: text('in_reply_to'),
    references: text('references'),
    subject: text('subject').notNull().default(''),
    from: jsonb('from').$type<TMailAddressJson | null>(),
    to: jsonb('to').$type<TMailAddressJson[]>().notNull().default([]),
    cc: jsonb('cc').$type<TMailAddressJson[]>().notNull().default([]),
    /** Reply-To as parsed when synced (0104); null for a message stored before, whose reply reads `headers` (decision 095). */
    replyTo: jsonb('reply_to').$type<TMailAddressJson[]>(),
    sentOn: tsz('sent_on'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    text: text('text').notNull().default(''),
    html: text('html'),
    remoteImages: integer('remote_images').notNull().default(0),
    createdOn: createdNow(),
    /** When the sync found it expunged from the server's folder (decision 090): hidden from the threads, kept. */
    deletedOn: tsz('deleted_on'),
  },
  (t) => [
    uniqueIndex('mail_messages_mailbox_message_uq').on(t.mailboxId, t.messageId),
    index('mail_messages_mailbox_uid_idx').on(t.mailboxId, t.uidValidity, t.uid),
    // A client's answer finds the message it answers by Message-ID, in any mailbox (0097).
    index('mail_messages_message_id_idx').on(t.messageId),
  ],
);

export const mailAttachments = pgTable(
  'mail_attachments',
  {
    id: serial('id').primaryKey(),
    messageId: partOf('message_id', () => mailMessages.id),
    systemName: text('system_name').notNull(),
    userName: text('user_name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
  },
  (t) => [index('mail_attachments_message_idx').on(t.messageId)],
);

export const mailMessageAccounts = pgTable(
  'mail_message_accounts',
  {
    messageId: partOf('message_id', () => mailMessages.id),
    accountId: partOf('account_id', () => accounts.id),
    sentOn: tsz('sent_on'),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.messageId] })],
);

/** A mail attachment saved to a record's files (0089): once per record; gone with the file. */
export const mailAttachmentFiles = pgTable(
  'mail_attachment_files',
  {
    attachmentId: partOf('attachment_id', () => mailAttachments.id),
    parentType: smallint('parent_type').notNull(),
    parentId: integer('parent_id').notNull(),
    fileId: partOf('file_id', () => files.id),
    createdOn: createdNow(),
  },
  (t) => [primaryKey({ name: 'mail_attachment_files_pk', columns: [t.attachmentId, t.parentType, t.parentId] }), index('mail_attachment_files_file_idx').on(t.fileId)],
);

export const mailMessageObjects = pgTable(
  'mail_message_objects',
  {
    messageId: partOf('message_id', () => mailMessages.id),
    objectId: partOf('object_id', () => objects.id),
    sentOn: tsz('sent_on'),
  },
  (t) => [primaryKey({ columns: [t.objectId, t.messageId] })],
);

/** A lead's thread (0097): mail written from it, replies to its messages, a client's answers to them, the enquiry it was made from. */
export const mailMessageLeads = pgTable(
  'mail_message_leads',
  {
    messageId: partOf('message_id', () => mailMessages.id),
    leadId: partOf('lead_id', (): AnyPgColumn => leads.id),
    sentOn: tsz('sent_on'),
  },
  (t) => [primaryKey({ name: 'mail_message_leads_pk', columns: [t.leadId, t.messageId] }), index('mail_message_leads_message_idx').on(t.messageId)],
);

/** The lead source of each portal's enquiries (decision 082), by a stable key, not by the account's name. */
export const enquirySources = pgTable(
  'enquiry_sources',
  {
    key: text('key').primaryKey(),
    accountId: partOf('account_id', () => accounts.id),
  },
  (t) => [index('enquiry_sources_account_idx').on(t.accountId)],
);

/** A portal's enquiry mail made into a lead, once per Message-ID (decision 082). */
export const mailEnquiries = pgTable(
  'mail_enquiries',
  {
    messageKey: text('message_key').primaryKey(),
    mailMessageId: linkTo('mail_message_id', () => mailMessages.id),
    source: text('source').notNull(),
    portalRef: text('portal_ref'),
    leadId: linkTo('lead_id', (): AnyPgColumn => leads.id),
    accountId: linkTo('account_id', () => accounts.id),
    objectId: linkTo('object_id', () => objects.id),
    sentOn: tsz('sent_on'),
    createdOn: createdNow(),
  },
  (t) => [index('mail_enquiries_lead_idx').on(t.leadId, t.sentOn.desc(), t.mailMessageId.desc()), index('mail_enquiries_message_idx').on(t.mailMessageId)],
);
