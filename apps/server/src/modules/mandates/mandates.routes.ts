import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { eq, sql } from 'drizzle-orm';
import { LinkKind, MANDATE_API } from '@crm/contract';
import { MANDATE } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
import { createKeptAnswers } from '../../lib/kept-answers.ts';
import { agencyToday } from '../../lib/dates.ts';
import { objectMandates } from '../../db/schema/index.ts';
import { registerFileParent } from '../files/file-parents.ts';
import { deleteMandate, getMandate, listMandates, mandatePublishGate, mandatesEndingSoon, saveMandate } from './mandates.service.ts';
import { checkMandateAlerts, MANDATE_CHECK_JOB } from './mandates.alerts.ts';

/** What the mandates ending soon show: the mandates, their owners, the properties, their agents and who a user is. */
const ENDING_SOON_TABLES = ['object_mandates', 'object_mandate_owners', 'objects', 'accounts', 'assignments', 'users'] as const;

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/**
 * A property's mandates (decision 079): the calls, the publish gate told of every property change,
 * the signed documents as the mandate's files, and the daily check of mandates ending.
 */
export const mandatesRoutes = fp(
  async (app: FastifyInstance) => {
    app.objectChangeListeners.push(mandatePublishGate(app));
    // A merged-away owner's mandates are the kept account's (a mandate both gave keeps one line).
    app.accountMergeSteps.push(async (tx, keptId, duplicateId) => {
      await tx.execute(sql`update object_mandate_owners o set account_id = ${keptId}
        where o.account_id = ${duplicateId} and not exists (select 1 from object_mandate_owners x where x.mandate_id = o.mandate_id and x.account_id = ${keptId})`);
    });
    registerFileParent(LinkKind.Mandate, {
      entity: 'Mandate',
      exists: async (db, id) => (await db.select({ id: objectMandates.id }).from(objectMandates).where(eq(objectMandates.id, id))).length > 0,
    });
    app.jobs.register(MANDATE_CHECK_JOB, async () => void (await checkMandateAlerts(app)), { everySeconds: 3600, maxAttempts: 3, backoffSeconds: 60 });
    const keptEndings = createKeptAnswers(app.db);
    registerCalls(
      app,
      MANDATE.calls,
      MANDATE_API,
      {
        list: { access: STAFF, handler: async (req) => listMandates(app, req.query.objectId) },
        edit: { access: STAFF, handler: async (req) => getMandate(app, app.db, req.params.id) },
        update: { access: STAFF, handler: async (req) => saveMandate(app, caller(req), req.body) },
        remove: okRoute(STAFF, (req) => deleteMandate(app, caller(req), req.params.id, req.query.version)),
        // Kept while nothing it shows changes (decision 072), for the agency's day: one list for the
        // office, or each agent's own with `mine` (the home screen asks for it on every visit).
        endingSoon: {
          access: STAFF,
          handler: async (req, reply) => {
            const mine = req.query.mine === '1';
            const key = JSON.stringify([agencyToday(app.config.timeZone), req.culture, mine ? req.user!.id : 0]);
            const body = await keptEndings.get(key, ENDING_SOON_TABLES, async () => MANDATE_API.endingSoon.answer.parse(await mandatesEndingSoon(app, req.user!, mine, req.culture)));
            return reply.type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(body as never);
          },
        },
      },
      { tags: ['mandates'] },
    );
  },
  { name: 'mandates', dependencies: ['objects'] },
);
