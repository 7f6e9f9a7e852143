import { LinkKind } from '@crm/contract/constants';

/**
 * The cache's keys of the records that screens of other areas change too (a deal's tenant changes a
 * property's contacts; a property saved changes a deal's property line): one definition, read by all.
 */
export const objectKeys = {
  all: ['object'] as const,
  lists: ['objects'] as const,
  list: (q: unknown) => ['objects', 'list', q] as const,
  view: (idOrRef: string | number) => ['object', 'view', String(idOrRef).toLowerCase()] as const,
  edit: (id: number) => ['object', 'edit', id] as const,
  photos: (id: number) => ['files', LinkKind.Object, id] as const,
};
