import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { REPORT_API } from '@crm/contract';
import { REPORT } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { sendDownload } from '../files/files.service.ts';
import { foldReportCells, REPORT_FOLD_JOB, results, syncReportZone } from './results.service.ts';
import { resultsWorkbook } from './results.xlsx.ts';

/** Reports: the agents' results over a period, on screen and as Results.xlsx. */
export const reportsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);
    // The kept figures' days are the agency's (TIME_ZONE): made again at start if it changed (decision 071).
    app.addHook('onReady', async () => syncReportZone(app));
    app.jobs.register(REPORT_FOLD_JOB, () => foldReportCells(app), { everySeconds: 60, maxAttempts: 2 });

    registerCalls(
      app,
      REPORT.calls,
      REPORT_API,
      {
        // Every staff member: an office admin reads every agent, a branch admin their branch's, an employee their own row.
        results: { access: STAFF, handler: async (req) => results(app, req.user!, req.body, tr(req)) },
        download: {
          access: STAFF,
          handler: async (req, reply) => sendDownload(app, req, reply, { entity: 'Report', name: 'Results.xlsx' }, () => resultsWorkbook(app, req.user!, req.body, tr(req), req.culture)),
        },
      },
      { tags: ['reports'] },
    );
  },
  { name: 'reports' },
);
