import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZDealAddQuery,
  ZDealAnswer,
  ZDealBoardAnswer,
  ZDealBoardQuery,
  ZDealDeleted,
  ZDealDownload,
  ZDealMove,
  ZDealSaved,
  ZDealSearch,
  ZDealSearchAnswer,
  ZDealUpdate,
  ZIdParam,
} from '@crm/contract';
import type { z } from 'zod';
import { STAFF } from '../../plugins/auth.ts';
import { createKeptAnswers } from '../../lib/kept-answers.ts';
import { sendDownload } from '../files/files.service.ts';
import { dealsWorkbook } from './deals.xlsx.ts';
import { agencyToday } from '../../lib/dates.ts';
import { DEAL_TOTALS_FOLD_JOB, foldDealTotals, accountDealRefs, blankDeal, dealBoard, deleteDeal, expireRentals, getDeal, moveDeal, moveDealParties, saveDeal, searchDeals, RENTALS_EXPIRE_JOB } from './deals.service.ts';

/** What the board reads: its answer is kept until one of them changes. */
const BOARD_TABLES = ['deals', 'deal_parties', 'accounts', 'objects', 'localization'] as const;

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/** Deals (spec: /api/Deal/...): the list, the record, and the board of deals by stage. */
export const dealsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const tags = ['deals'];
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);

    app.accountMergeSteps.push(moveDealParties);
    app.decorate('accountDealRefs', accountDealRefs);
    // A rental's end passes without anyone saving the deal: its object stops being "rented".
    const keptBoards = createKeptAnswers(app.db);
    app.jobs.register(DEAL_TOTALS_FOLD_JOB, () => foldDealTotals(app), { everySeconds: 60, maxAttempts: 2 });
    app.jobs.register(RENTALS_EXPIRE_JOB, () => expireRentals(app.db, agencyToday(app.config.timeZone)).then(() => undefined), { everySeconds: 3600, maxAttempts: 3, backoffSeconds: 60 });

    app.post(
      '/api/Deal/search',
      { config: { access: STAFF }, schema: { tags, body: ZDealSearch, response: { 200: ZDealSearchAnswer } } },
      async (req) => searchDeals(app, req.body, tr(req), req.culture),
    );
    // Deals.xlsx: every deal the list's filter matches, in the list's order.
    app.post(
      '/api/Deal/download',
      { config: { access: STAFF }, schema: { tags, body: ZDealDownload } },
      async (req, reply) => {
        return sendDownload(app, req, reply, { entity: 'Deal', name: 'Deals.xlsx' }, () => dealsWorkbook(app, req.body, tr(req), req.culture));
      },
    );
    app.get(
      '/api/Deal/add',
      { config: { access: STAFF }, schema: { tags, querystring: ZDealAddQuery, response: { 200: ZDealAnswer } } },
      async (req) => blankDeal(app, req.query, tr(req), req.culture) as never,
    );
    app.get(
      '/api/Deal/edit/:id',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZDealAnswer } } },
      async (req) => getDeal(app, app.db, req.params.id, tr(req), req.culture) as never,
    );
    app.post(
      '/api/Deal/update',
      { config: { access: STAFF }, schema: { tags, body: ZDealUpdate, response: { 200: ZDealSaved } } },
      async (req) => saveDeal(app, caller(req), req.body, tr(req), req.culture) as never,
    );
    app.post(
      '/api/Deal/move',
      { config: { access: STAFF }, schema: { tags, body: ZDealMove, response: { 200: ZDealSaved } } },
      async (req) => moveDeal(app, caller(req), req.body.id, req.body.version, req.body.dealStage, tr(req), req.culture) as never,
    );
    app.post(
      '/api/Deal/board',
      { config: { access: STAFF }, schema: { tags, body: ZDealBoardQuery, response: { 200: ZDealBoardAnswer } } },
      async (req, reply) => {
        // Kept while nothing it shows changes (decision 072): the board is the same for everyone who opens it.
        const body = await keptBoards.get(JSON.stringify([req.body, req.culture]), BOARD_TABLES, async () => ZDealBoardAnswer.parse(await dealBoard(app, req.body, tr(req), req.culture)));
        return reply.type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(body as unknown as z.infer<typeof ZDealBoardAnswer>);
      },
    );
    app.delete(
      '/api/Deal/:id',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZDealDeleted } } },
      async (req) => ({ ok: true as const, notices: await deleteDeal(app, caller(req), req.params.id, tr(req), req.culture) }),
    );
  },
  { name: 'deals', dependencies: ['accounts'] },
);
