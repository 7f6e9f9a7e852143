import { calls, type ListDeclaration } from './call.ts';
import type { LOCATION_API, OBJECT_ACCOUNT_API, OBJECT_API, OBJECT_KEY_API } from './objects.ts';

/**
 * Objects, the agency's properties (spec: /api/object/...): the list, the search and its download,
 * the record (add, discard, edit, view, update, delete), the property sheet, the picker (decision
 * 057). Its single-field editor is the fields' (`FIELD.of.object`), its publishing state the
 * publishing's (`PUBLISHING`), its matching leads the leads' (`LEAD.calls.forObject`).
 */
export const OBJECT = {
  calls: calls<typeof OBJECT_API>({
    list: 'POST /api/object',
    add: 'GET /api/object/add',
    discard: 'POST /api/object/discard',
    edit: 'GET /api/object/edit/:id',
    update: 'POST /api/object/update',
    view: 'GET /api/object/view/:idOrRef',
    sheet: 'GET /api/object/sheet/:idOrRef',
    remove: 'DELETE /api/object/:id',
    download: 'POST /api/object/download',
    search: 'POST /api/object/search',
    searchByRefNumOrTitle: 'GET /api/object/searchByRefNumOrTitle',
  }),
  screens: {
    list: '/Objects',
    add: '/Objects/Add/:ownerId?',
    search: '/Objects/Search',
    sheet: '/Objects/Sheet/:id',
    view: '/Objects/View/:id/:viewMode?',
  },
  list: {
    testId: 'objects',
    title: 'title.objects',
    empty: 'objects.list.empty',
    add: { to: '/Objects/Add/:ownerId?', label: 'objects.list.add' },
  } satisfies ListDeclaration,
} as const;

/** An object's contacts: owners, tenants and the other people of a property (spec: /api/objectAccount) (decision 057). */
export const OBJECT_ACCOUNT = {
  calls: calls<typeof OBJECT_ACCOUNT_API>({
    add: 'POST /api/objectAccount/add',
    update: 'POST /api/objectAccount/update',
    remove: 'DELETE /api/objectAccount',
  }),
  screens: {},
} as const;

/** The keys register (spec: /api/ObjectKeys...): the list, a key, its loans corrected one by one (decision 014), delete (decision 057). */
export const OBJECT_KEY = {
  calls: calls<typeof OBJECT_KEY_API>({
    list: 'GET /api/ObjectKeys',
    edit: 'GET /api/ObjectKeys/edit/:id',
    update: 'POST /api/ObjectKeys/edit',
    updateLoan: 'POST /api/ObjectKeys/loan',
    removeLoan: 'DELETE /api/ObjectKeys/loan/:id',
    remove: 'DELETE /api/ObjectKeys/:id',
  }),
  screens: {
    list: '/ObjectKeys',
    view: '/ObjectKeys/:id',
    /** A new key: the key's own screen under the id "new" (?objectId= names its property). */
    add: '/ObjectKeys/new',
  },
  list: {
    testId: 'keys',
    title: 'title.keys',
    empty: 'objectkeys.empty',
    add: { to: '/ObjectKeys/new', label: 'objectkeys.add' },
  } satisfies ListDeclaration,
} as const;

/** Places: the location picker's suggestions and the places with the most objects (decision 057). */
export const LOCATION = {
  calls: calls<typeof LOCATION_API>({
    search: 'GET /api/location/search',
    top: 'GET /api/object/getTopLocations',
  }),
  screens: {},
} as const;
