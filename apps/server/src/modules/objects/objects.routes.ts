import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { OBJECT_ACCOUNT_API, OBJECT_API, OBJECT_KEY_API, ZObjectSearchAnswer } from '@crm/contract';
import { OBJECT, OBJECT_ACCOUNT, OBJECT_KEY } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
import { sendDownload } from '../files/files.service.ts';
import { objectsWorkbook } from './objects.xlsx.ts';
import { addObject, deleteObject, discardObject, editAnswer, EMPTY_OBJECTS_JOB, pruneEmptyObjects, resolveIdOrRef, updateObject, viewAnswer, type Reader } from './objects.service.ts';
import { listObjects, makeObjectSearchProvider, searchByRefNumOrTitle, searchObjects } from './objects.lists.ts';
import { addObjectAccount, addObjectOfOwner, deleteObjectAccount, mergeObjectLinks, OWNERS_REFRESH_JOB, refreshEndedOwners, updateObjectAccount } from './object-accounts.service.ts';
import { deleteKey, deleteLoan, getKey, listKeys, saveKey, updateLoan } from './object-keys.service.ts';
import { objectSheet } from './object-sheet.ts';
import { reservationsOfObject } from '../reservations/reservations.service.ts';
import { createKeptAnswers } from '../../lib/kept-answers.ts';

/** What a search on the map reads: its pins are kept until one of them changes (decision 072). */
const MAP_TABLES = ['objects', 'locations', 'accounts', 'localization'] as const;

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/**
 * Objects (the agency's properties): list, search, the record (add, edit, view, update, delete),
 * their contacts (object–account links) and the keys register.
 */
export const objectsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;
    const keptMaps = createKeptAnswers(app.db);
    const reader = (req: FastifyRequest): Reader => ({
      culture: req.culture,
      t: (key, params) => app.translator.t(req.culture, key, params),
      timeZone: app.config.timeZone,
    });
    app.decorate('objectChangeListeners', []);
    app.searchProviders.push(makeObjectSearchProvider(app));
    app.accountMergeSteps.push(mergeObjectLinks);
    app.jobs.register(OWNERS_REFRESH_JOB, async () => void (await refreshEndedOwners(app.db)), { everySeconds: 3600, maxAttempts: 2 });

    // Objects opened with Add and left untouched in a tab that was closed: removed after a day.
    app.jobs.register(EMPTY_OBJECTS_JOB, () => pruneEmptyObjects(app).then(() => undefined), { everySeconds: 6 * 3600, maxAttempts: 2 });

    registerCalls(
      app,
      OBJECT.calls,
      OBJECT_API,
      {
        list: { access: STAFF, handler: async (req) => listObjects(app, req.body, reader(req)) },
        add: {
          access: STAFF,
          config: { creates: true },
          handler: async (req) => (req.query.ownerId ? addObjectOfOwner(app, caller(req), reader(req), req.query.ownerId) : addObject(app, caller(req), reader(req))),
        },
        discard: { access: STAFF, handler: async (req) => discardObject(app, caller(req), req.body.id) },
        edit: { access: STAFF, handler: async (req) => editAnswer(app.db, reader(req), req.params.id) },
        update: { access: STAFF, handler: async (req) => updateObject(app, caller(req), reader(req), req.body) },
        view: {
          access: STAFF,
          handler: async (req) => {
            const id = await resolveIdOrRef(app.db, req.params.idOrRef);
            const view = await viewAnswer(app.db, reader(req), id);
            // Reservations are hidden from branch users (docs/access.md).
            return req.user!.branchId === null ? { ...view, reservations: await reservationsOfObject(app.db, id, req.culture, reader(req).t) } : view;
          },
        },
        // The property sheet an agent hands out: the same access as the view; its texts in the sheet's language.
        // Without an assigned agent it names the one who prints it (not an API key's maker: sessionId 0).
        sheet: {
          access: STAFF,
          handler: async (req) => {
            const culture = req.query.culture ?? req.culture;
            const id = await resolveIdOrRef(app.db, req.params.idOrRef);
            return objectSheet(app, id, culture, (key, params) => app.translator.t(culture, key, params), req.query.address === '1', req.user!.sessionId === 0 ? undefined : req.user!.id);
          },
        },
        remove: okRoute(STAFF, (req) => deleteObject(app, caller(req), req.params.id)),
        // Properties.xlsx: every property the search's filters match, newest first.
        download: {
          access: STAFF,
          handler: async (req, reply) => sendDownload(app, req, reply, { entity: 'Object', name: 'Properties.xlsx' }, () => objectsWorkbook(app, req.body, reader(req))),
        },
        search: {
          access: STAFF,
          handler: async (req, reply) => {
            if (!req.body.showOnMap) return searchObjects(app, req.body, reader(req));
            // The map's pins (up to 2,000) kept while no property, place or text they show changes
            // (decision 072): the same search opened again, by anyone, is read back.
            const body = await keptMaps.get(JSON.stringify([req.body, req.culture]), MAP_TABLES, async () => ZObjectSearchAnswer.parse(await searchObjects(app, req.body, reader(req))));
            return reply.type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(body as never);
          },
        },
        searchByRefNumOrTitle: { access: STAFF, handler: async (req) => searchByRefNumOrTitle(app, req.query.searchStr, req.query.options, req.culture) },
      },
      { tags: ['objects'] },
    );

    // Contacts: owners, tenants and the other people of a property
    registerCalls(
      app,
      OBJECT_ACCOUNT.calls,
      OBJECT_ACCOUNT_API,
      {
        add: { access: STAFF, handler: async (req) => addObjectAccount(app, caller(req), reader(req), req.body) },
        update: { access: STAFF, handler: async (req) => updateObjectAccount(app, caller(req), reader(req), req.body) },
        remove: okRoute(STAFF, (req) => deleteObjectAccount(app, caller(req), req.body)),
      },
      { tags: ['objects'] },
    );

    // Keys
    registerCalls(
      app,
      OBJECT_KEY.calls,
      OBJECT_KEY_API,
      {
        list: { access: STAFF, handler: async (req) => listKeys(app, req.query, req.culture) },
        edit: { access: STAFF, handler: async (req) => getKey(app, app.db, req.params.id, req.culture) },
        update: { access: STAFF, handler: async (req) => saveKey(app, caller(req), req.body, req.culture) },
        // One loan of a key's history corrected or deleted on its own (decision 014): answers the key.
        updateLoan: { access: STAFF, handler: async (req) => updateLoan(app, caller(req), req.body, req.culture) },
        removeLoan: { access: STAFF, handler: async (req) => deleteLoan(app, caller(req), req.params.id, req.query.version, req.culture) },
        remove: okRoute(STAFF, (req) => deleteKey(app, caller(req), req.params.id)),
      },
      { tags: ['keys'] },
    );
  },
  { name: 'objects', dependencies: ['accounts'] },
);
