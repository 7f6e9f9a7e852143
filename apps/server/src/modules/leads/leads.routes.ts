import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZIdParam,
  ZLeadAdd,
  ZLeadDiscard,
  ZLeadDiscardAnswer,
  ZLeadAddAnswer,
  ZLeadAnswer,
  ZLeadObjectChange,
  ZLeadObjectsAnswer,
  ZLeadQuickAnswer,
  ZLeadQuickQuery,
  ZLeadSearch,
  ZLeadSearchAnswer,
  ZLeadMatchesAnswer,
  ZLeadUpdate,
  ZMatchQuery,
  ZNotSuitable,
  ZObjectMatchesAnswer,
  ZOk,
} from '@crm/contract';
import { leadsForObject, markMatchesSeen, matchesForLead, setNotSuitable, applyMatchChanges, MATCHING_APPLY_JOB } from './matching.ts';
import { searchAccountMatches } from '../accounts/accounts.search.ts';
import { STAFF } from '../../plugins/auth.ts';
import {
  addLead,
  accountLeads,
  addLeadObject,
  deleteLead,
  discardLead,
  EMPTY_LEADS_JOB,
  pruneEmptyLeads,
  findLeads,
  moveLeads,
  removeLeadObject,
  requireLeadAnswer,
  searchLeads,
  updateLead,
} from './leads.service.ts';

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/** Today in the agency's time zone, YYYY-MM-DD. */
const today = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/**
 * Leads (client demands): the list with its filters, the record (add, get, view, update, delete),
 * the offered objects, the lead picker, and the leads' part of global search (Lead hits).
 */
export const leadsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const tags = ['leads'];
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);

    app.accountMergeSteps.push(moveLeads);
    app.decorate('accountLeads', (db, accountId, culture) => accountLeads(db, accountId, (key, params) => app.translator.t(culture, key, params)));
    app.searchProviders.push(async ({ text, limit, culture, shared }) => {
      const clients = async () => (await shared('accounts', () => searchAccountMatches(app, text, culture))).ids;
      return (await findLeads(app, text, limit, (key, params) => app.translator.t(culture, key, params), clients)).map((h) => ({ ...h, entity: 'Lead' as const }));
    });

    app.post(
      '/api/lead/search',
      { config: { access: STAFF }, schema: { tags, body: ZLeadSearch, response: { 200: ZLeadSearchAnswer } } },
      async (req) => searchLeads(app, req.body, tr(req), req.culture),
    );
    app.post(
      '/api/lead/add',
      { config: { access: STAFF }, schema: { tags, body: ZLeadAdd.optional(), response: { 200: ZLeadAddAnswer } } },
      async (req) => addLead(app, caller(req), req.body?.accountId, today(app.config.timeZone)),
    );
    // Leads opened with Add and left untouched in a tab that was closed: removed after a day.
    // The kept matches brought up to date with the properties and leads changed (decision 070); the
    // triggers that write the changes queue it, in the changing transaction.
    app.jobs.register(MATCHING_APPLY_JOB, () => applyMatchChanges(app).then(() => undefined), { maxAttempts: 10, backoffSeconds: 5 });
    app.jobs.register(EMPTY_LEADS_JOB, () => pruneEmptyLeads(app).then(() => undefined), { everySeconds: 6 * 3600, maxAttempts: 2 });
    app.post(
      '/api/lead/discard',
      { config: { access: STAFF }, schema: { tags, body: ZLeadDiscard, response: { 200: ZLeadDiscardAnswer } } },
      async (req) => discardLead(app, caller(req), req.body.id),
    );
    for (const path of ['/api/lead/get/:id', '/api/lead/view/:id']) {
      app.get(
        path,
        { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZLeadAnswer } } },
        async (req) => requireLeadAnswer(app, app.db, req.params.id, req.culture, tr(req)),
      );
    }
    app.post(
      '/api/lead/update',
      { config: { access: STAFF }, schema: { tags, body: ZLeadUpdate, response: { 200: ZLeadAnswer } } },
      async (req) => updateLead(app, caller(req), req.body as never, req.culture, tr(req)),
    );
    app.delete(
      '/api/lead/:id',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZOk } } },
      async (req) => {
        await deleteLead(app, caller(req), req.params.id);
        return { ok: true as const };
      },
    );
    app.post(
      '/api/lead/addObject',
      { config: { access: STAFF }, schema: { tags, body: ZLeadObjectChange, response: { 200: ZLeadObjectsAnswer } } },
      async (req) => addLeadObject(app, caller(req), req.body.leadId, req.body.objectId, req.culture),
    );
    app.post(
      '/api/lead/removeObject',
      { config: { access: STAFF }, schema: { tags, body: ZLeadObjectChange, response: { 200: ZLeadObjectsAnswer } } },
      async (req) => removeLeadObject(app, caller(req), req.body.leadId, req.body.objectId, req.culture),
    );
    // Matching (beyond the spec): objects for a lead, leads for an object.
    app.get(
      '/api/lead/:id/matches',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, querystring: ZMatchQuery, response: { 200: ZLeadMatchesAnswer } } },
      async (req) => matchesForLead(app, req.params.id, req.query.limit, req.culture, tr(req)),
    );
    app.post(
      '/api/lead/:id/matches/seen',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZOk } } },
      async (req) => {
        await markMatchesSeen(app, req.params.id);
        return { ok: true as const };
      },
    );
    app.post(
      '/api/lead/:id/notSuitable',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, body: ZNotSuitable, response: { 200: ZOk } } },
      async (req) => {
        await setNotSuitable(app, caller(req), req.params.id, req.body.objectId, req.body.notSuitable);
        return { ok: true as const };
      },
    );
    app.get(
      '/api/object/:id/matchingLeads',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, querystring: ZMatchQuery, response: { 200: ZObjectMatchesAnswer } } },
      async (req) => leadsForObject(app, req.params.id, req.query.limit, req.culture, tr(req)),
    );
    app.get(
      '/api/lead/searchQuick',
      { config: { access: STAFF }, schema: { tags, querystring: ZLeadQuickQuery, response: { 200: ZLeadQuickAnswer } } },
      async (req) => ({ items: await findLeads(app, req.query.searchStr, 20, tr(req)) }),
    );
  },
  { name: 'leads', dependencies: ['accounts'] },
);
