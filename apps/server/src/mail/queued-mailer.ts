import type { JobRunner } from '../jobs/runner.ts';
import type { Mail, Mailer } from './mailer.ts';

export const MAIL_JOB = 'mail.send';

/**
 * The app's mailer: `send` keeps its signature but only queues the mail (a `mail.send` job,
 * retried with back-off when the SMTP server refuses or is away; after the last try admins get an
 * alert). Given a transaction, the mail goes only if it commits. Without a running job runner
 * (scripts), mail is sent at once.
 */
export function createQueuedMailer(jobs: JobRunner, transport: Mailer, pendingWork: Set<Promise<void>>): Mailer {
  jobs.register<Mail>(MAIL_JOB, async (mail) => {
    await transport.send(mail);
  }, { maxAttempts: 8, backoffSeconds: 60 });
  return {
    describe: transport.describe,
    async send(mail, o = {}) {
      if (!jobs.isStarted) return transport.send(mail);
      const jobId = await jobs.enqueue(MAIL_JOB, { ...mail }, { tx: o.tx });
      // Work of a request (a reset mail) is awaited when the app closes, and by tests that read the outbox.
      if (jobId !== null && !o.tx) {
        const p = jobs.whenSettled(jobId).finally(() => pendingWork.delete(p));
        pendingWork.add(p);
      }
      return { jobId: jobId ?? undefined };
    },
  };
}
