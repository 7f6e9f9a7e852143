import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAccount,
  ZAccountAdd,
  ZAccountEditAnswer,
  ZAccountMerge,
  ZAccountRow,
  ZAccountSearchAnswer,
  ZAccountSearchQuery,
  ZAccountUpdate,
  ZClientSearch,
  ZClientSearchAnswer,
  ZEmployeRow,
  ZIdParam,
  ZAccountErase,
  ZListQuery,
  ZOk,
  ZOwnerRow,
  ZPartnerRow,
  ZPartnerSearch,
  ZSourceRow,
  ZSpecialistRow,
  ZUserRole,
  ZUserRoleBody,
  listAnswer,
} from '@crm/contract';
import { OFFICE_ADMIN, STAFF, STAFF_NO_BRANCH } from '../../plugins/auth.ts';
import {
  accountForCaller,
  addAccount,
  branchOptions,
  deleteAccount,
  getUserRole,
  makeProvisionSignIn,
  findEmployeeByEmail,
  mergeAccounts,
  requireAccountDto,
  roleOptions,
  serviceOptions,
  setUserRole,
  sourceOptions,
  updateAccount,
  type AccountDeleteStep,
  type AccountMergeStep,
} from './accounts.service.ts';
import { listAccounts, listClients, listEmployes, listOwners, listPartners, listSources, listSpecialists } from './accounts.lists.ts';
import { erasePersonalData, personalDataWorkbook } from './personal-data.ts';
import { sendDownload } from '../files/files.service.ts';
import { makeAccountSearchProvider, pruneSearchWords, searchAccounts, SEARCH_WORDS_PRUNE_JOB } from './accounts.search.ts';
import { requireVersion } from '../../lib/errors.ts';

/** Roles are the office admins' business: a branch admin does not change them either. */

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });
const translate = (app: FastifyInstance, req: FastifyRequest) => (key: string) => app.translator.t(req.culture, key);

/**
 * Accounts: lists by kind, the record (view, edit, add, update, delete, merge), the account picker,
 * the accounts' part of global search, employee roles and employees' sign-ins.
 * Registered with fastify-plugin: what it decorates (provisionSignIn, merge/delete steps) is the
 * whole application's.
 */
export const accountsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.decorate('accountMergeSteps', [] as AccountMergeStep[]);
    app.decorate('accountDeleteSteps', [] as AccountDeleteStep[]);
    app.decorate('provisionSignIn', makeProvisionSignIn());
    app.decorate('findSignInAccount', findEmployeeByEmail);
    app.searchProviders.push(makeAccountSearchProvider(app));
    // Words the global search no longer finds in any account (names changed, accounts deleted).
    app.jobs.register(SEARCH_WORDS_PRUNE_JOB, () => pruneSearchWords(app), { everySeconds: 24 * 3600, maxAttempts: 2 });

    const tags = ['accounts'];

    // Lists
    app.get(
      '/api/owner',
      { config: { access: STAFF }, schema: { tags, querystring: ZListQuery, response: { 200: listAnswer(ZOwnerRow) } } },
      async (req) => listOwners(app, { ...req.query, culture: req.culture }),
    );
    app.post(
      '/api/clients/search',
      { config: { access: STAFF }, schema: { tags, body: ZClientSearch, response: { 200: ZClientSearchAnswer } } },
      async (req) => {
        const [list, sourceList] = await Promise.all([listClients(app, { ...req.body, culture: req.culture }), sourceOptions(app.db)]);
        return { ...list, filterLists: { serviceList: serviceOptions(translate(app, req), true), sourceList } };
      },
    );
    app.get(
      '/api/professional',
      { config: { access: STAFF }, schema: { tags, querystring: ZListQuery, response: { 200: listAnswer(ZSpecialistRow) } } },
      async (req) => listSpecialists(app, { ...req.query, culture: req.culture }),
    );
    app.post(
      '/api/partners',
      { config: { access: STAFF }, schema: { tags, body: ZPartnerSearch, response: { 200: listAnswer(ZPartnerRow) } } },
      async (req) => listPartners(app, { ...req.body, culture: req.culture }),
    );
    app.get(
      '/api/source',
      { config: { access: STAFF }, schema: { tags, querystring: ZListQuery, response: { 200: listAnswer(ZSourceRow) } } },
      async (req) => listSources(app, { ...req.query, culture: req.culture }),
    );
    app.get(
      '/api/employe',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, querystring: ZListQuery, response: { 200: listAnswer(ZEmployeRow) } } },
      async (req) => listEmployes(app, { ...req.query, culture: req.culture }),
    );
    app.get(
      '/api/account',
      { config: { access: STAFF }, schema: { tags, querystring: ZListQuery, response: { 200: listAnswer(ZAccountRow) } } },
      async (req) => listAccounts(app, { ...req.query, culture: req.culture }, { withEmployees: req.user!.branchId === null }),
    );

    // The account picker
    app.get(
      '/api/account/search',
      { config: { access: STAFF }, schema: { tags, querystring: ZAccountSearchQuery, response: { 200: ZAccountSearchAnswer } } },
      async (req) => searchAccounts(app, req.query.searchStr, req.query.filter, req.culture),
    );

    // The record
    app.post(
      '/api/account/add',
      { config: { access: STAFF }, schema: { tags, body: ZAccountAdd, response: { 200: z.object({ id: z.number().int() }) } } },
      async (req) => addAccount(app, caller(req), req.body),
    );
    app.get(
      '/api/account/view/:id',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZAccount } } },
      async (req) => accountForCaller(req.user!, await requireAccountDto(app, app.db, req.params.id, req.culture)),
    );
    app.get(
      '/api/account/edit/:id',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZAccountEditAnswer } } },
      async (req) => {
        const t = translate(app, req);
        const [dto, branches, sources] = await Promise.all([
          requireAccountDto(app, app.db, req.params.id, req.culture),
          branchOptions(app.db, t),
          sourceOptions(app.db),
        ]);
        return {
          dto: accountForCaller(req.user!, dto),
          selectLists: {
            roles: roleOptions(t),
            branches,
            sources: sources.filter((s) => s.value !== dto.id),
            services: serviceOptions(t, false),
          },
        };
      },
    );
    app.post(
      '/api/account/update',
      { config: { access: STAFF }, schema: { tags, body: ZAccountUpdate, response: { 200: ZAccount } } },
      async (req) => accountForCaller(req.user!, await updateAccount(app, caller(req), req.body)),
    );
    app.delete(
      '/api/account/:id',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZOk } } },
      async (req) => {
        await deleteAccount(app, caller(req), req.params.id);
        return { ok: true as const };
      },
    );
    app.post(
      '/api/account/merge',
      { config: { access: STAFF }, schema: { tags, body: ZAccountMerge, response: { 200: ZAccount } } },
      async (req) => accountForCaller(req.user!, await mergeAccounts(app, caller(req), req.body.account, req.body.duplicateId)),
    );

    // A person's data (GDPR): everything held about them, and their erasure. Office admins only.
    app.get(
      '/api/account/personal-data/:id',
      { config: { access: OFFICE_ADMIN }, schema: { tags, params: ZIdParam } },
      async (req, reply) =>
        sendDownload(app, req, reply, { entity: 'Account', name: `Personal-data-${req.params.id}.xlsx`, data: { accountId: req.params.id } }, () =>
          personalDataWorkbook(app, req.params.id, (key, params) => app.translator.t(req.culture, key, params), req.culture),
        ),
    );
    app.post(
      '/api/account/erase/:id',
      { config: { access: OFFICE_ADMIN }, schema: { tags, params: ZIdParam, body: ZAccountErase, response: { 200: ZAccount } } },
      async (req) => {
        await erasePersonalData(app, caller(req), req.params.id, requireVersion(req.body.version));
        return requireAccountDto(app, app.db, req.params.id, req.culture);
      },
    );

    // Employee role (the page behind "Change role" on an employee account)
    app.get(
      '/api/UserRole/:id',
      { config: { access: OFFICE_ADMIN }, schema: { tags, params: ZIdParam, response: { 200: ZUserRole } } },
      async (req) => getUserRole(app, translate(app, req), req.params.id),
    );
    app.post(
      '/api/UserRole/:id',
      { config: { access: OFFICE_ADMIN }, schema: { tags, params: ZIdParam, body: ZUserRoleBody, response: { 200: ZUserRole } } },
      async (req) => {
        await setUserRole(app, caller(req), req.params.id, req.body.role);
        return getUserRole(app, translate(app, req), req.params.id);
      },
    );
  },
  { name: 'accounts' },
);
