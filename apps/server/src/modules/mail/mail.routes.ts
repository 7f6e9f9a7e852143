import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAIL_API, MAILBOX_API } from '@crm/contract';
import { MAIL, MAILBOX } from '@crm/contract/resources';
import { OFFICE_ADMIN, STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { deleteMailbox, listMailboxes, queueSync, saveMailbox, testMailbox } from './mailboxes.service.ts';
import { foldMailCounts, listMail, sendAttachment, viewMail } from './mail.service.ts';
import { MAIL_COUNTS_FOLD_JOB } from './mail-counts.ts';
import { replyToMail } from './mail-reply.ts';
import { recordTimeline } from './mail-timeline.ts';
import { mailDraft, sendNewMail } from './mail-compose.ts';
import { saveAttachment } from './mail-attachment-save.ts';
import { sendRemoteImage } from './mail-images.ts';
import { moveMailLinks } from './mail-store.ts';
import { createMailIdle } from './mail-idle.ts';
import { MAIL_SYNC_JOB, MAIL_SYNC_ONE_JOB, syncAllMailboxes, syncMailbox } from './mail-sync.ts';

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/** The agency's mailboxes and the mail synced onto its records (issue 46, decision 078). */
export const mailRoutes = async (app: FastifyInstance) => {
  app.accountMergeSteps.push(moveMailLinks);
  // Every active mailbox synced every minute, once across instances; one mailbox now when asked (saved, "Sync now").
  app.jobs.register(MAIL_SYNC_JOB, (_p, ctx) => syncAllMailboxes(app, ctx.signal), { everySeconds: app.config.mailIn.pollSeconds, maxAttempts: 2 });
  app.jobs.register<{ mailboxId: number }>(MAIL_SYNC_ONE_JOB, async (p, ctx) => void (await syncMailbox(app, p.mailboxId, ctx.signal)), { maxAttempts: 3, backoffSeconds: 30 });
  // The records whose mail changed counted again (decision 105); until then they are counted on the spot.
  app.jobs.register(MAIL_COUNTS_FOLD_JOB, () => foldMailCounts(app), { everySeconds: 30, maxAttempts: 2 });
  // New mail within seconds where the server offers IDLE (decision 090): where this instance runs background work.
  const idle = createMailIdle(app);
  app.addHook('onReady', async () => {
    if (app.config.mailIn.idle && app.jobs.isStarted) idle.start();
  });
  app.addHook('onClose', async () => idle.stop());

  registerCalls(
    app,
    MAILBOX.calls,
    MAILBOX_API,
    {
      list: { access: STAFF, handler: async (req) => listMailboxes(app, req.user!) },
      save: { access: OFFICE_ADMIN, handler: async (req) => saveMailbox(app, caller(req), req.body) },
      remove: {
        access: OFFICE_ADMIN,
        handler: async (req) => {
          await deleteMailbox(app, caller(req), req.params.id);
          return { ok: true as const };
        },
      },
      test: { access: OFFICE_ADMIN, handler: async (req) => testMailbox(app, req.body, (key) => app.translator.t(req.culture, key)) },
      sync: {
        access: OFFICE_ADMIN,
        handler: async (req) => {
          await queueSync(app, req.params.id);
          return { ok: true as const };
        },
      },
    },
    { tags: ['mail'] },
  );
  registerCalls(
    app,
    MAIL.calls,
    MAIL_API,
    {
      list: { access: STAFF, handler: async (req) => listMail(app, req.user!, req.query) },
      timeline: { access: STAFF, handler: async (req) => recordTimeline(app, req.user!, req.query) },
      view: { access: STAFF, handler: async (req) => viewMail(app, req.user!, req.params.id) },
      attachment: { access: STAFF, config: { fileCookie: true }, file: 'The attachment as sent', handler: async (req, reply) => sendAttachment(app, req.user!, req.params.id, reply) },
      image: { access: STAFF, file: 'A remote picture of the message, fetched by the server', handler: async (req, reply) => sendRemoteImage(app, req.user!, req.params.id, req.params.n, reply) },
      reply: { access: STAFF, handler: async (req) => replyToMail(app, caller(req), req.params.id, req.body) },
      draft: { access: STAFF, handler: async (req) => mailDraft(app, req.user!, req.query) },
      send: { access: STAFF, handler: async (req) => sendNewMail(app, caller(req), req.body) },
      saveAttachment: { access: STAFF, handler: async (req) => saveAttachment(app, caller(req), req.params.id, req.body) },
    },
    { tags: ['mail'] },
  );
};
