import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { REPORT_API } from '@crm/contract';
import { REPORT } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { sendDownload } from '../files/files.service.ts';
import { foldReportCells, keptResults, REPORT_FOLD_JOB, syncReportZone } from './results.service.ts';
import { resultsWorkbook } from './results.xlsx.ts';

/** Reports: the agents' results over a period, on screen and as Results.xlsx. */
export const reportsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);
    // The kept figures' days are the agency's (TIME_ZONE): made again at start if it changed (decision 071).
    app.addHook('onReady', async () => syncReportZone(app));
    app.jobs.register(REPORT_FOLD_JOB, () => foldReportCells(app), { everySeconds: 60, maxAttempts: 2 });

    // Read from the kept cells (about 700 for a range cut at both ends), then kept as answered until one
    // of the tables it is made from changes (decision 072).
    const kept = keptResults(app);
    registerCalls(
      app,
      REPORT.calls,
      REPORT_API,
      {
        // Every staff member: an office admin reads every agent, a branch admin their branch's, an employee their own row.
        results: {
          access: STAFF,
          handler: async (req, reply) => {
            const body = await kept.get(req.user!, req.body, tr(req), req.culture);
            return reply.type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(body as never);
          },
        },
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
