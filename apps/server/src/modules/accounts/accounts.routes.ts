import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ACCOUNT_API } from '@crm/contract';
import { ACCOUNT } from '@crm/contract/resources';
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
import { okRoute, registerCalls } from '../../lib/calls.ts';

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
    const app = root;
    app.decorate('accountMergeSteps', [] as AccountMergeStep[]);
    app.decorate('accountDeleteSteps', [] as AccountDeleteStep[]);
    app.decorate('provisionSignIn', makeProvisionSignIn());
    app.decorate('findSignInAccount', findEmployeeByEmail);
    app.searchProviders.push(makeAccountSearchProvider(app));
    // Words the global search no longer finds in any account (names changed, accounts deleted).
    app.jobs.register(SEARCH_WORDS_PRUNE_JOB, () => pruneSearchWords(app), { everySeconds: 24 * 3600, maxAttempts: 2 });

    registerCalls(
      app,
      ACCOUNT.calls,
      ACCOUNT_API,
      {
        // Lists
        owners: { access: STAFF, handler: async (req) => listOwners(app, { ...req.query, culture: req.culture }) },
        clients: {
          access: STAFF,
          handler: async (req) => {
            const [list, sourceList] = await Promise.all([listClients(app, { ...req.body, culture: req.culture }), sourceOptions(app.db)]);
            return { ...list, filterLists: { serviceList: serviceOptions(translate(app, req), true), sourceList } };
          },
        },
        professionals: { access: STAFF, handler: async (req) => listSpecialists(app, { ...req.query, culture: req.culture }) },
        partners: { access: STAFF, handler: async (req) => listPartners(app, { ...req.body, culture: req.culture }) },
        sources: { access: STAFF, handler: async (req) => listSources(app, { ...req.query, culture: req.culture }) },
        employes: { access: STAFF_NO_BRANCH, handler: async (req) => listEmployes(app, { ...req.query, culture: req.culture }) },
        list: { access: STAFF, handler: async (req) => listAccounts(app, { ...req.query, culture: req.culture }, { withEmployees: req.user!.branchId === null }) },

        // The account picker
        search: { access: STAFF, handler: async (req) => searchAccounts(app, req.query.searchStr, req.query.filter, req.culture) },

        // The record
        add: { access: STAFF, handler: async (req) => addAccount(app, caller(req), req.body) },
        view: { access: STAFF, handler: async (req) => accountForCaller(req.user!, await requireAccountDto(app, app.db, req.params.id, req.culture)) },
        edit: {
          access: STAFF,
          handler: async (req) => {
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
        },
        update: { access: STAFF, handler: async (req) => accountForCaller(req.user!, await updateAccount(app, caller(req), req.body)) },
        remove: okRoute(STAFF, (req) => deleteAccount(app, caller(req), req.params.id)),
        merge: { access: STAFF, handler: async (req) => accountForCaller(req.user!, await mergeAccounts(app, caller(req), req.body.account, req.body.duplicateId)) },

        // A person's data (GDPR): everything held about them, and their erasure. Office admins only.
        personalData: {
          access: OFFICE_ADMIN,
          handler: async (req, reply) =>
            sendDownload(app, req, reply, { entity: 'Account', name: `Personal-data-${req.params.id}.xlsx`, data: { accountId: req.params.id } }, () =>
              personalDataWorkbook(app, req.params.id, (key, params) => app.translator.t(req.culture, key, params), req.culture),
            ),
        },
        erase: {
          access: OFFICE_ADMIN,
          handler: async (req) => {
            await erasePersonalData(app, caller(req), req.params.id, requireVersion(req.body.version));
            return requireAccountDto(app, app.db, req.params.id, req.culture);
          },
        },

        // Employee role (the page behind "Change role" on an employee account)
        role: { access: OFFICE_ADMIN, handler: async (req) => getUserRole(app, translate(app, req), req.params.id) },
        setRole: {
          access: OFFICE_ADMIN,
          handler: async (req) => {
            await setUserRole(app, caller(req), req.params.id, req.body.role);
            return getUserRole(app, translate(app, req), req.params.id);
          },
        },
      },
      { tags: ['accounts'] },
    );
  },
  { name: 'accounts' },
);
