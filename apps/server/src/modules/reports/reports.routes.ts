import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { REPORT_API } from '@crm/contract';
import { REPORT } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { sendDownload } from '../files/files.service.ts';
import { results } from './results.service.ts';
import { resultsWorkbook } from './results.xlsx.ts';

/** Reports: the agents' results over a period, on screen and as Results.xlsx. */
export const reportsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);

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
