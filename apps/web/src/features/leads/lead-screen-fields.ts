import { LEAD_FIELDS, LEAD_GROUPS, type TLeadFieldDescription, type TLeadGroup } from '@crm/contract/lead-fields';

/**
 * The client the lead is for, edited with the lead's fields (a lead added from the Leads list has
 * none yet): an account picked by typing its name, saved with the same auto-save and version guard.
 * It is the lead's link, not a described field of its own, so it is added here.
 */
const CLIENT_FIELD: TLeadFieldDescription = { name: 'accountId', type: 'location', group: 'main' };

/** The fields the lead's edit form edits: the client, then the described ones (`fields`: the description, by default the real one). */
export const leadFormFields = (fields: readonly TLeadFieldDescription[] = LEAD_FIELDS): readonly TLeadFieldDescription[] => [CLIENT_FIELD, ...fields];

/** The edit form's sections: a group each, with its inputs in the description's order. */
export const leadFormSections = (fields: readonly TLeadFieldDescription[] = LEAD_FIELDS): { group: TLeadGroup; fields: TLeadFieldDescription[] }[] =>
  LEAD_GROUPS.map((group) => ({ group, fields: leadFormFields(fields).filter((d) => d.group === group) }));

/**
 * The read-only page's sections: a group each but the services (badges at the top), with its
 * fields in the description's order (those holding a value are shown).
 */
export const leadViewSections = (fields: readonly TLeadFieldDescription[] = LEAD_FIELDS): { group: TLeadGroup; fields: TLeadFieldDescription[] }[] =>
  LEAD_GROUPS.filter((g) => g !== 'services').map((group) => ({ group, fields: fields.filter((d) => d.group === group) }));
