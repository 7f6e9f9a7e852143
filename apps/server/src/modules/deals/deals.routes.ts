import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DEAL_API } from '@crm/contract';
import { DEAL } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { sendDownload } from '../files/files.service.ts';
import { dealsWorkbook } from './deals.xlsx.ts';
import { agencyToday } from '../../lib/dates.ts';
import { createKeptAnswers } from '../../lib/kept-answers.ts';
import { DEAL_TOTALS_FOLD_JOB, foldDealTotals, accountDealRefs, blankDeal, dealBoard, deleteDeal, expireRentals, getDeal, moveDeal, moveDealParties, saveDeal, searchDeals, RENTALS_EXPIRE_JOB } from './deals.service.ts';

/** What the board reads: its answer is kept until one of them changes (decision 072). */
const BOARD_TABLES = ['deals', 'deal_parties', 'accounts', 'objects', 'localization'] as const;

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/** Deals (spec: /api/Deal/...): the list, the record, and the board of deals by stage. */
export const dealsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;
    const tags = ['deals'];
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);

    app.accountMergeSteps.push(moveDealParties);
    app.decorate('accountDealRefs', accountDealRefs);
    // A rental's end passes without anyone saving the deal: its object stops being "rented".
    const keptBoards = createKeptAnswers(app.db);
    // The deals' kept totals' deltas added into them (decision 072).
    app.jobs.register(DEAL_TOTALS_FOLD_JOB, () => foldDealTotals(app), { everySeconds: 60, maxAttempts: 2 });
    app.jobs.register(RENTALS_EXPIRE_JOB, () => expireRentals(app.db, agencyToday(app.config.timeZone)).then(() => undefined), { everySeconds: 3600, maxAttempts: 3, backoffSeconds: 60 });

    registerCalls(
      app,
      DEAL.calls,
      DEAL_API,
      {
        search: { access: STAFF, handler: async (req) => searchDeals(app, req.body, tr(req), req.culture) },
        // Deals.xlsx: every deal the list's filter matches, in the list's order.
        download: {
          access: STAFF,
          file: 'Deals.xlsx',
          handler: async (req, reply) => sendDownload(app, req, reply, { entity: 'Deal', name: 'Deals.xlsx' }, () => dealsWorkbook(app, req.body, tr(req), req.culture)),
        },
        add: { access: STAFF, handler: async (req) => blankDeal(app, req.query, tr(req), req.culture) },
        edit: { access: STAFF, handler: async (req) => getDeal(app, app.db, req.params.id, tr(req), req.culture) },
        update: { access: STAFF, handler: async (req) => saveDeal(app, caller(req), req.body, tr(req), req.culture) },
        move: { access: STAFF, handler: async (req) => moveDeal(app, caller(req), req.body, tr(req), req.culture) },
        // Kept while nothing it shows changes (decision 072): the board is the same for everyone who opens it.
        board: {
          access: STAFF,
          handler: async (req, reply) => {
            const body = await keptBoards.get(JSON.stringify([req.body, req.culture]), BOARD_TABLES, async () => DEAL_API.board.answer.parse(await dealBoard(app, req.body, tr(req), req.culture)));
            return reply.type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(body as never);
          },
        },
        remove: { access: STAFF, handler: async (req) => ({ ok: true as const, notices: await deleteDeal(app, caller(req), req.params.id, tr(req), req.culture) }) },
      },
      { tags },
    );
  },
  { name: 'deals', dependencies: ['accounts'] },
);
