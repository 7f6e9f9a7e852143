import { calls } from './call.ts';
import type { FIELD_API } from './fields.ts';

/** The single-field editor's calls of one entity, under its name (`account`) or any name (`:entity`). */
const fieldCalls = (entity: string) =>
  calls<typeof FIELD_API>({
    selectList: `GET /api/${entity}/editRequestSelectList`,
    patch: `PATCH /api/${entity}/patch/:id`,
    patchByPost: `POST /api/${entity}/patch/:id`,
  });

/**
 * The single-field editor (spec: GET /api/{entity}/editRequestSelectList, JSON patch
 * /api/{entity}/patch/{id}) (decision 057). `calls` names the entity in the path (an entity without
 * an editor is a 400); `of` are the entities with an editor, each under its own static paths, which
 * win over other routes of the entity's (`/api/object/:id/...`).
 */
export const FIELD = {
  calls: fieldCalls(':entity'),
  of: {
    account: fieldCalls('account'),
    object: fieldCalls('object'),
  },
  screens: {},
} as const;
