import type { FastifyInstance } from 'fastify';
import { createAlert } from './alerts.create.ts';

/**
 * The alerts the job runner itself makes: a job that used up its attempts (a mail that could not
 * be sent, a publish that kept failing) is an alert for the office, made in the transaction that
 * marks the job failed, so it is made once.
 */
export function registerJobAlerts(app: FastifyInstance) {
  app.jobs.onFinalFailure(async (job, error, tx, reason) => {
    // A failure the Jobs page explains (a backup's: the disk full, a folder not writable) is not
    // spelled out here: its technical message names the server's folders and addresses, which
    // every employee reading alerts has no need of; the office admin reads it on the Jobs page.
    if (reason !== null) {
      await createAlert(tx, {
        source: 'Jobs',
        kind: 'job',
        messageKey: 'alerts.msg.jobFailedExplained',
        params: { name: job.name, attempts: job.attempts },
        content: `The background job "${job.name}" failed after ${job.attempts} attempt(s). An office administrator sees why on the Background jobs page.`,
        entity: 'Job',
        entityId: job.id,
        dedupKey: `job:${job.id}`,
      });
      return;
    }
    const detail = error.length > 500 ? `${error.slice(0, 500)}…` : error;
    await createAlert(tx, {
      source: 'Jobs',
      kind: 'job',
      messageKey: 'alerts.msg.jobFailed',
      params: { name: job.name, attempts: job.attempts, error: detail },
      content: `The background job "${job.name}" failed after ${job.attempts} attempt(s): ${detail}`,
      entity: 'Job',
      entityId: job.id,
      dedupKey: `job:${job.id}`,
    });
  });
}
