import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { OWNER_REPORT_API } from '@crm/contract';
import { OWNER_REPORT } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { guardSecretLink } from '../../lib/throttle.ts';
import type { AppPageRoute } from '../../plugins/web.ts';
import { createLink, getState, OWNER_REPORT_MONTHLY_JOB, revokeLinks, runMonthlyReports, sendNow, setMonthly, shareComment, viewReport } from './owner-reports.service.ts';

const caller = (req: FastifyRequest) => ({ userId: req.user!.id, actor: req.actor });
/** The owner's page and its data: never cached, never indexed, the token not passed on in a Referer. */
const PRIVATE_HEADERS = { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' } as const;

/**
 * The owner's report (issue 47, decision 087): staff (properties belong to no branch, as their
 * mandates) make, mail and revoke a property's links, switch its monthly mail and share viewing
 * comments; the owner opens /OwnerReport/{token} without a sign-in. The monthly mail is a job.
 */
export const ownerReportsRoutes = fp(
  async (app: FastifyInstance) => {
    app.jobs.register(OWNER_REPORT_MONTHLY_JOB, async () => void (await runMonthlyReports(app)), { everySeconds: 3600, maxAttempts: 3, backoffSeconds: 300 });
    registerCalls(
      app,
      OWNER_REPORT.calls,
      OWNER_REPORT_API,
      {
        state: { access: STAFF, handler: async (req) => getState(app, req.params.id) },
        createLink: { access: STAFF, handler: async (req) => createLink(app, caller(req), req.params.id) },
        send: { access: STAFF, handler: async (req) => sendNow(app, caller(req), req.params.id) },
        revoke: { access: STAFF, handler: async (req) => revokeLinks(app, caller(req), req.params.id) },
        monthly: { access: STAFF, handler: async (req) => setMonthly(app, caller(req), req.params.id, req.body.monthly) },
        share: { access: STAFF, handler: async (req) => shareComment(app, caller(req), req.params.id, req.body.viewingId, req.body.share) },
        view: {
          access: 'public',
          handler: async (req, reply) => {
            reply.headers(PRIVATE_HEADERS);
            return guardSecretLink(app.db, 'ownerreport', req.ip, () => viewReport(app, req.params.token));
          },
        },
      },
      { tags: ['mandates'] },
    );
  },
  { name: 'ownerReports', dependencies: ['mandates'] },
);

/** The owner's page as the server sends it: the app's page, never indexed nor cached. */
export const ownerReportAppPage = (): AppPageRoute => ({
  path: OWNER_REPORT.screens.page,
  page: async () => ({ status: 200, meta: [{ name: 'robots', content: 'noindex, nofollow' }], headers: { ...PRIVATE_HEADERS } }),
});
