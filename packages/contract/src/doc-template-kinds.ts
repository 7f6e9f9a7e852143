// The document templates' kinds and placeholders (no runtime dependencies: the web imports it as
// '@crm/contract/doc-template-kinds' without zod); their schemas and calls are in doc-templates.ts.
/**
 * The agency's document templates (issue 47, decision 084): the mandate (simple and exclusive), the
 * offer and deposit agreement of a deal, and the handover protocol of a property. Each is, per
 * language, a title, a body (paragraphs split by a blank line; a line starting "## " is a heading)
 * and its signature blocks (one a line). Placeholders are `{group.name}` and are filled from the
 * records; the defaults are texts (doctemplates.default.<template>.<part>), an edited one is stored.
 */
export const DOC_TEMPLATES = ['mandateSimple', 'mandateExclusive', 'offer', 'handover', 'mailViewing', 'mailDocuments', 'mailFollowUp'] as const;
/**
 * The agency's mail texts (issue 46, decision 089), kept and edited with the documents' templates:
 * the title is the mail's subject, the body its text; they have no signature blocks (the mailbox's
 * signature goes under every mail).
 */
export const MAIL_TEMPLATES = ['mailViewing', 'mailDocuments', 'mailFollowUp'] as const;
export type TMailTemplateKind = (typeof MAIL_TEMPLATES)[number];
export const isMailTemplate = (k: string): k is TMailTemplateKind => (MAIL_TEMPLATES as readonly string[]).includes(k);
export type TDocTemplateKind = (typeof DOC_TEMPLATES)[number];
export const DOC_TEMPLATE_PARTS = ['title', 'body', 'signatures'] as const;
export type TDocTemplatePart = (typeof DOC_TEMPLATE_PARTS)[number];
/** What a document is made from: a mandate (its kind picks the template), a deal, a property. */
export const DOC_SOURCES = ['mandate', 'offer', 'handover'] as const;
export type TDocSource = (typeof DOC_SOURCES)[number];

export const DOC_TITLE_MAX = 300;
export const DOC_BODY_MAX = 30000;
export const DOC_SIGNATURES_MAX = 1000;

const AGENCY = ['agency.name', 'agency.registry', 'agency.taxNumber', 'agency.taxOffice', 'agency.address', 'agency.phone', 'agency.email'];
const PROPERTY = ['property.ref', 'property.address', 'property.type', 'property.area', 'property.floor'];
const COMMON = ['document.date', 'agent.name', ...AGENCY, ...PROPERTY];
/** What a mail text may name: the greeting in the client's language, the agent, the agency, a property (from a property's view). */
const MAIL_PLACEHOLDERS = ['client.greeting', 'client.name', 'agent.name', 'agency.name', 'agency.phone', 'agency.email', 'property.ref', 'property.address'];
const MANDATE = ['mandate.owners', 'mandate.start', 'mandate.end', 'mandate.months', 'mandate.price', 'mandate.commission', 'mandate.notes'];

/** The placeholders each template may hold (without braces); any other is refused on save. */
export const DOC_PLACEHOLDERS: Record<TDocTemplateKind, readonly string[]> = {
  mandateSimple: [...COMMON, ...MANDATE],
  mandateExclusive: [...COMMON, ...MANDATE, 'mandate.exceptions', 'mandate.extendedUntil'],
  offer: [...COMMON, 'deal.buyers', 'deal.sellers', 'deal.purpose', 'deal.price', 'deal.askingPrice', 'deal.deposit', 'deal.depositDate', 'deal.commission', 'deal.signBy', 'deal.rentStart', 'deal.months', 'deal.notes'],
  handover: [...COMMON, 'handover.owners', 'handover.tenants', 'handover.keys', 'handover.rent', 'handover.leaseStart'],
  mailViewing: MAIL_PLACEHOLDERS,
  mailDocuments: MAIL_PLACEHOLDERS,
  mailFollowUp: MAIL_PLACEHOLDERS,
};

/** The placeholders written in a text, each once, in the order they first appear. */
export const placeholdersIn = (text: string): string[] => [...new Set([...text.matchAll(/\{([^{}\s]{1,60})\}/g)].map((m) => m[1]!))];
