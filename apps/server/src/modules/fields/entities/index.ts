import { registerPatchableEntity } from '../field-registry.ts';
import { accountEntity } from './account.ts';
import { objectEntity } from './object.ts';

/**
 * Every entity whose fields the single-field editor patches. A module adding one (objects with
 * distance, area and location fields; leads ...) writes entities/<entity>.ts and adds a line here.
 */
export function registerEntities() {
  registerPatchableEntity(accountEntity);
  registerPatchableEntity(objectEntity);
}
