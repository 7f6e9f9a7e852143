import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LEAD_API } from '@crm/contract';
import { LEAD } from '@crm/contract/resources';
import { leadsForObject, markMatchesSeen, matchesForLead, setNotSuitable, applyMatchChanges, MATCHING_APPLY_JOB } from './matching.ts';
import { searchAccountMatches } from '../accounts/accounts.search.ts';
import { STAFF } from '../../plugins/auth.ts';
import { type CallRoutes, okRoute, registerCalls } from '../../lib/calls.ts';
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
import { leadFileHasContacts, leadsWorkbook } from './leads.xlsx.ts';
import { sendDownload } from '../files/files.service.ts';

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/** Today in the agency's time zone, YYYY-MM-DD. */
const today = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/**
 * Leads (client demands): the list with its filters, the record (add, get, view, update, delete),
 * the offered objects, the lead picker, and the leads' part of global search (Lead hits).
 */
export const leadsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);

    app.accountMergeSteps.push(moveLeads);
    app.decorate('accountLeads', (db, accountId, culture) => accountLeads(db, accountId, (key, params) => app.translator.t(culture, key, params)));
    app.searchProviders.push(async ({ text, limit, culture, shared }) => {
      const matches = () => shared('accounts', () => searchAccountMatches(app, text, culture));
      const clients = async () => (await matches()).ids;
      const open = async () => (await matches()).openLeads;
      return (await findLeads(app, text, limit, (key, params) => app.translator.t(culture, key, params), clients, open)).map((h) => ({ ...h, entity: 'Lead' as const }));
    });

    // Leads opened with Add and left untouched in a tab that was closed: removed after a day.
    // The kept matches brought up to date with the properties and leads changed (decision 070); the
    // triggers that write the changes queue it, in the changing transaction.
    app.jobs.register(MATCHING_APPLY_JOB, () => applyMatchChanges(app).then(() => undefined), { maxAttempts: 10, backoffSeconds: 5 });
    app.jobs.register(EMPTY_LEADS_JOB, () => pruneEmptyLeads(app).then(() => undefined), { everySeconds: 6 * 3600, maxAttempts: 2 });

    const readLead: CallRoutes<typeof LEAD_API>['get'] = { access: STAFF, handler: async (req) => requireLeadAnswer(app, app.db, req.params.id, req.culture, tr(req)) };
    registerCalls(
      app,
      LEAD.calls,
      LEAD_API,
      {
        search: { access: STAFF, handler: async (req) => searchLeads(app, req.body, tr(req), req.culture) },
        // Leads.xlsx: every lead the list's filter matches, in the list's order.
        download: {
          access: STAFF,
          file: 'Leads.xlsx',
          handler: async (req, reply) => sendDownload(app, req, reply, { entity: 'Lead', name: 'Leads.xlsx' }, () => leadsWorkbook(app, req.body, tr(req), req.culture, leadFileHasContacts(req.apiKeyScopes))),
        },
        add: { access: STAFF, handler: async (req) => addLead(app, caller(req), req.body?.accountId, today(app.config.timeZone)) },
        discard: { access: STAFF, handler: async (req) => discardLead(app, caller(req), req.body.id) },
        get: readLead,
        view: readLead,
        update: { access: STAFF, handler: async (req) => updateLead(app, caller(req), req.body as never, req.culture, tr(req)) },
        remove: okRoute(STAFF, (req) => deleteLead(app, caller(req), req.params.id)),
        addObject: { access: STAFF, handler: async (req) => addLeadObject(app, caller(req), req.body.leadId, req.body.objectId, req.culture) },
        removeObject: { access: STAFF, handler: async (req) => removeLeadObject(app, caller(req), req.body.leadId, req.body.objectId, req.culture) },
        // Matching (beyond the spec): objects for a lead, leads for an object.
        matches: { access: STAFF, handler: async (req) => matchesForLead(app, req.params.id, req.query.limit, req.culture, tr(req)) },
        matchesSeen: okRoute(STAFF, (req) => markMatchesSeen(app, req.params.id)),
        notSuitable: okRoute(STAFF, (req) => setNotSuitable(app, caller(req), req.params.id, req.body.objectId, req.body.notSuitable)),
        forObject: { access: STAFF, handler: async (req) => leadsForObject(app, req.params.id, req.query.limit, req.culture, tr(req)) },
        searchQuick: { access: STAFF, handler: async (req) => ({ items: await findLeads(app, req.query.searchStr, 20, tr(req)) }) },
      },
      { tags: ['leads'] },
    );
  },
  { name: 'leads', dependencies: ['accounts'] },
);
