import { calls } from './call.ts';
import type { MANDATE_API } from './mandates.ts';

/**
 * A property's mandates (εντολή ανάθεσης, decision 079): its list with the one in force, one mandate,
 * its save (new or changed, the law's limits checked), delete, and the agents' list of mandates
 * ending soon. Their signed documents are files of the mandate (`FILE`, LinkKind.Mandate).
 */
export const MANDATE = {
  calls: calls<typeof MANDATE_API>({
    list: 'GET /api/Mandate',
    edit: 'GET /api/Mandate/edit/:id',
    update: 'POST /api/Mandate/update',
    remove: 'DELETE /api/Mandate/:id',
    endingSoon: 'GET /api/Mandate/endingSoon',
  }),
  screens: {
    endingSoon: '/Mandates/EndingSoon',
  },
} as const;
