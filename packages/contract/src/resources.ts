/**
 * Every resource's route table and screens, and the helpers to call and link them (decision 057).
 * Nothing here loads zod: the web imports this module; the schemas are typed in through type-only
 * imports.
 */
export * from './call.ts';
export { DEAL } from './deals.resource.ts';
