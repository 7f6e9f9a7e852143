import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZIdParam,
  ZObjectAccount,
  ZObjectAccountKey,
  ZObjectAddQuery,
  ZObjectDiscard,
  ZObjectDiscardAnswer,
  ZObjectEditAnswer,
  ZObjectIdOrRefParam,
  ZObjectKeyAnswer,
  ZObjectKeyEdit,
  ZObjectKeyListAnswer,
  ZObjectKeyListQuery,
  ZObjectKeyLoanDeleteQuery,
  ZObjectKeyLoanEdit,
  ZObjectListAnswer,
  ZObjectListQuery,
  ZObjectRefSearchAnswer,
  ZObjectRefSearchQuery,
  ZObjectDownload,
  ZObjectSearch,
  ZObjectSearchAnswer,
  ZObjectSheetAnswer,
  ZObjectSheetQuery,
  ZObjectUpdate,
  ZObjectViewAnswer,
  ZOk,
  ZRealtyObject,
} from '@crm/contract';
import { STAFF } from '../../plugins/auth.ts';
import { sendDownload } from '../files/files.service.ts';
import { objectsWorkbook } from './objects.xlsx.ts';
import { addObject, deleteObject, discardObject, editAnswer, EMPTY_OBJECTS_JOB, pruneEmptyObjects, resolveIdOrRef, updateObject, viewAnswer, type Reader } from './objects.service.ts';
import { listObjects, makeObjectSearchProvider, searchByRefNumOrTitle, searchObjects } from './objects.lists.ts';
import { createKeptAnswers } from '../../lib/kept-answers.ts';

/** What a search on the map reads: its pins are kept until one of them changes (decision 072). */
const MAP_TABLES = ['objects', 'locations', 'accounts', 'localization'] as const;
import { addObjectAccount, addObjectOfOwner, deleteObjectAccount, mergeObjectLinks, OWNERS_REFRESH_JOB, refreshEndedOwners, updateObjectAccount } from './object-accounts.service.ts';
import { deleteKey, deleteLoan, getKey, listKeys, saveKey, updateLoan } from './object-keys.service.ts';
import { objectSheet } from './object-sheet.ts';
import { reservationsOfObject } from '../reservations/reservations.service.ts';

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/**
 * Objects (the agency's properties): list, search, the record (add, edit, view, update, delete),
 * their contacts (object–account links) and the keys register.
 */
export const objectsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
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

    const tags = ['objects'];
    app.post(
      '/api/object',
      { config: { access: STAFF }, schema: { tags, body: ZObjectListQuery, response: { 200: ZObjectListAnswer } } },
      async (req) => listObjects(app, req.body, reader(req)),
    );
    app.get(
      '/api/object/add',
      { config: { access: STAFF, creates: true }, schema: { tags, querystring: ZObjectAddQuery, response: { 200: ZRealtyObject } } },
      async (req) => (req.query.ownerId ? addObjectOfOwner(app, caller(req), reader(req), req.query.ownerId) : addObject(app, caller(req), reader(req))),
    );
    // Objects opened with Add and left untouched in a tab that was closed: removed after a day.
    app.jobs.register(EMPTY_OBJECTS_JOB, () => pruneEmptyObjects(app).then(() => undefined), { everySeconds: 6 * 3600, maxAttempts: 2 });
    app.post(
      '/api/object/discard',
      { config: { access: STAFF }, schema: { tags, body: ZObjectDiscard, response: { 200: ZObjectDiscardAnswer } } },
      async (req) => discardObject(app, caller(req), req.body.id),
    );
    app.get(
      '/api/object/edit/:id',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZObjectEditAnswer } } },
      async (req) => editAnswer(app.db, reader(req), req.params.id),
    );
    app.post(
      '/api/object/update',
      { config: { access: STAFF }, schema: { tags, body: ZObjectUpdate, response: { 200: ZRealtyObject } } },
      async (req) => updateObject(app, caller(req), reader(req), req.body),
    );
    app.get(
      '/api/object/view/:idOrRef',
      { config: { access: STAFF }, schema: { tags, params: ZObjectIdOrRefParam, response: { 200: ZObjectViewAnswer } } },
      async (req) => {
        const id = await resolveIdOrRef(app.db, req.params.idOrRef);
        const view = await viewAnswer(app.db, reader(req), id);
        // Reservations are hidden from branch users (docs/access.md).
        return req.user!.branchId === null ? { ...view, reservations: await reservationsOfObject(app.db, id, req.culture, reader(req).t) } : view;
      },
    );
    // The property sheet an agent hands out: the same access as the view; its texts in the sheet's language.
    app.get(
      '/api/object/sheet/:idOrRef',
      { config: { access: STAFF }, schema: { tags, params: ZObjectIdOrRefParam, querystring: ZObjectSheetQuery, response: { 200: ZObjectSheetAnswer } } },
      async (req) => {
        const culture = req.query.culture ?? req.culture;
        const id = await resolveIdOrRef(app.db, req.params.idOrRef);
        return objectSheet(app.db, id, culture, (key, params) => app.translator.t(culture, key, params), req.query.address === '1');
      },
    );
    app.delete(
      '/api/object/:id',
      { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZOk } } },
      async (req) => {
        await deleteObject(app, caller(req), req.params.id);
        return { ok: true as const };
      },
    );
    // Properties.xlsx: every property the search's filters match, newest first.
    app.post(
      '/api/object/download',
      { config: { access: STAFF }, schema: { tags, body: ZObjectDownload } },
      async (req, reply) => sendDownload(app, req, reply, { entity: 'Object', name: 'Properties.xlsx' }, () => objectsWorkbook(app, req.body, reader(req))),
    );
    app.post(
      '/api/object/search',
      { config: { access: STAFF }, schema: { tags, body: ZObjectSearch, response: { 200: ZObjectSearchAnswer } } },
      async (req, reply) => {
        if (!req.body.showOnMap) return searchObjects(app, req.body, reader(req));
        // The map's pins (up to 2,000) kept while no property, place or text they show changes
        // (decision 072): the same search opened again, by anyone, is read back.
        const body = await keptMaps.get(JSON.stringify([req.body, req.culture]), MAP_TABLES, async () => ZObjectSearchAnswer.parse(await searchObjects(app, req.body, reader(req))));
        return reply.type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(body as never);
      },
    );
    app.get(
      '/api/object/searchByRefNumOrTitle',
      { config: { access: STAFF }, schema: { tags, querystring: ZObjectRefSearchQuery, response: { 200: ZObjectRefSearchAnswer } } },
      async (req) => searchByRefNumOrTitle(app, req.query.searchStr, req.query.options, req.culture),
    );

    // Contacts: owners, tenants and the other people of a property
    app.post(
      '/api/objectAccount/add',
      { config: { access: STAFF }, schema: { tags, body: ZObjectAccount, response: { 200: ZObjectAccount } } },
      async (req) => addObjectAccount(app, caller(req), reader(req), req.body),
    );
    app.post(
      '/api/objectAccount/update',
      { config: { access: STAFF }, schema: { tags, body: ZObjectAccount, response: { 200: ZObjectAccount } } },
      async (req) => updateObjectAccount(app, caller(req), reader(req), req.body),
    );
    app.delete(
      '/api/objectAccount',
      { config: { access: STAFF }, schema: { tags, body: ZObjectAccountKey, response: { 200: ZOk } } },
      async (req) => {
        await deleteObjectAccount(app, caller(req), req.body);
        return { ok: true as const };
      },
    );

    // Keys
    const keyTags = ['keys'];
    app.get(
      '/api/ObjectKeys',
      { config: { access: STAFF }, schema: { tags: keyTags, querystring: ZObjectKeyListQuery, response: { 200: ZObjectKeyListAnswer } } },
      async (req) => listKeys(app, req.query, req.culture),
    );
    app.get(
      '/api/ObjectKeys/edit/:id',
      { config: { access: STAFF }, schema: { tags: keyTags, params: ZIdParam, response: { 200: ZObjectKeyAnswer } } },
      async (req) => getKey(app, app.db, req.params.id, req.culture),
    );
    app.post(
      '/api/ObjectKeys/edit',
      { config: { access: STAFF }, schema: { tags: keyTags, body: ZObjectKeyEdit, response: { 200: ZObjectKeyAnswer } } },
      async (req) => saveKey(app, caller(req), req.body, req.culture),
    );
    // One loan of a key's history corrected or deleted on its own (decision 014): answers the key.
    app.post(
      '/api/ObjectKeys/loan',
      { config: { access: STAFF }, schema: { tags: keyTags, body: ZObjectKeyLoanEdit, response: { 200: ZObjectKeyAnswer } } },
      async (req) => updateLoan(app, caller(req), req.body, req.culture),
    );
    app.delete(
      '/api/ObjectKeys/loan/:id',
      { config: { access: STAFF }, schema: { tags: keyTags, params: ZIdParam, querystring: ZObjectKeyLoanDeleteQuery, response: { 200: ZObjectKeyAnswer } } },
      async (req) => deleteLoan(app, caller(req), req.params.id, req.query.version, req.culture),
    );
    app.delete(
      '/api/ObjectKeys/:id',
      { config: { access: STAFF }, schema: { tags: keyTags, params: ZIdParam, response: { 200: ZOk } } },
      async (req) => {
        await deleteKey(app, caller(req), req.params.id);
        return { ok: true as const };
      },
    );
  },
  { name: 'objects', dependencies: ['accounts'] },
);
