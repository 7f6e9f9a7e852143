import { calls } from './call.ts';
import type { MAIL_API, MAILBOX_API } from './mail.ts';

/** The agency's mailboxes (issue 46, decision 078): list, save, remove, a connection test, a sync now. */
export const MAILBOX = {
  calls: calls<typeof MAILBOX_API>({
    list: 'GET /api/mailboxes',
    save: 'POST /api/mailboxes/update',
    remove: 'DELETE /api/mailboxes/:id',
    test: 'POST /api/mailboxes/test',
    sync: 'POST /api/mailboxes/:id/sync',
  }),
  screens: {
    list: '/Mailboxes',
  },
} as const;

/** The mail synced onto the records: an account's or a property's mail, a record's timeline (its activities and mail together), one message, an attachment, a reply, a new mail (its draft: recipients and the agency's texts). */
export const MAIL = {
  calls: calls<typeof MAIL_API>({
    list: 'GET /api/mail',
    timeline: 'GET /api/mail/timeline',
    view: 'GET /api/mail/:id',
    attachment: 'GET /api/mail/attachment/:id/:name',
    image: 'GET /api/mail/:id/image/:n',
    reply: 'POST /api/mail/:id/reply',
    draft: 'GET /api/mail/draft',
    send: 'POST /api/mail/send',
    saveAttachment: 'POST /api/mail/attachment/:id/save',
  }),
  screens: {},
} as const;
