import { describe, expect, it } from 'vitest';
import { DEAL_FIELDS, DEAL_TYPE_RENTAL, DEAL_TYPE_SALE, dealMoreColumns, type TDealFieldDescription } from '@crm/contract/deal-fields';
import { LEAD_FIELDS, leadMoreColumns, type TLeadFieldDescription } from '@crm/contract/lead-fields';
import { OBJECT_FIELDS, objectMoreColumns, type TFieldDescription } from '@crm/contract/object-fields';
import { moreColumnOptions } from '../kit/more-columns.ts';
import { leadFormSections, leadViewSections } from '../features/leads/lead-screen-fields.ts';

// The screens' modules read the page's start-up settings: here, a page with none, drawn as on the
// server (first-paint.ts: what waits for the browser's effects is drawn at once).
Object.assign(globalThis, { __firstPaint: {}, document: { cookie: '' }, window: Object.assign(new EventTarget(), { location: { pathname: '/' } }), localStorage: { getItem: () => null, setItem() {}, removeItem() {} } });
const { objectFormFields, objectViewFields } = await import('../features/objects/object-display.ts');
const { dealPageFields } = await import('../features/deals/deal-form.ts');

/**
 * A field added to the description of properties, leads or deals reaches the record's form, its
 * view and the list's column chooser with no line of its own: each screen is made from the
 * description it is given. Here each description gets one field more (the real ones stay as they
 * are); the server's test (apps/server/test/field-reach.test.ts) follows it into the files.
 */
const names = (fields: readonly { name: string }[]) => fields.map((d) => d.name);

/** A card of a drawn view: from its test id to the next card's (a group's, a property's part, a lead's group or stamps). */
function cardOf(html: string, testId: string): string {
  const start = html.indexOf(`data-testid="${testId}"`);
  expect(start, testId).toBeGreaterThanOrEqual(0);
  const rest = html.slice(start + 1);
  const next = rest.search(/data-testid="(group-|object-|lead-group-|lead-stamps)/);
  return next < 0 ? rest : rest.slice(0, next);
}

/** React and the providers a view is drawn in, with i18next started (no texts: a text is its key). */
async function drawing() {
  const [{ default: i18n }, { renderToString }, { createElement: h }, { MantineProvider }, { QueryClient, QueryClientProvider }, { MemoryRouter }] = await Promise.all([
    import('i18next'),
    import('react-dom/server'),
    import('react'),
    import('@mantine/core'),
    import('@tanstack/react-query'),
    import('react-router'),
  ]);
  if (!i18n.isInitialized) await i18n.init({ lng: 'en', resources: { en: { translation: {} } }, keySeparator: false, nsSeparator: false, fallbackLng: false, initAsync: false });
  const draw = (view: ReturnType<typeof h>) => renderToString(h(MantineProvider, null, h(QueryClientProvider, { client: new QueryClient() }, h(MemoryRouter, null, view))));
  return { h, draw };
}

/** A lead's view drawn to HTML, from the given description, for a lead with a budget set and `more`. */
async function drawLeadView(fields: readonly TLeadFieldDescription[], more: Record<string, unknown>): Promise<string> {
  const [{ h, draw }, { LeadDetails }] = await Promise.all([drawing(), import('../features/leads/components/lead-details.tsx')]);
  const lead = { id: 7, version: 1, accountId: 3, account: 'Παπαδοπούλου Μαρία', budgetFrom: 100000, ...more } as unknown as Parameters<typeof LeadDetails>[0]['lead'];
  return draw(h(LeadDetails, { lead, fields }));
}

/**
 * The property view drawn to HTML as the server draws a first paint (no browser), from the given
 * description, for a property with a few facts set and `more`; texts are their keys (none loaded).
 */
async function drawObjectView(fields: readonly TFieldDescription[], more: Record<string, unknown>): Promise<string> {
  const [{ h, draw }, { ObjectView }] = await Promise.all([drawing(), import('../features/objects/components/object-view.tsx')]);
  const data = { id: 42, version: 1, referenceNumber: 42, title: 'Διαμέρισμα', area: 80, floor: 2, contacts: [], images: [], ...more } as unknown as Parameters<typeof ObjectView>[0]['data'];
  return draw(h(ObjectView, { data, fields, onSaved: () => undefined }));
}
const chooser = (offered: readonly string[], entity: string) => moreColumnOptions(offered, (key) => `fields.${entity}.${key}`);

describe('a field added to the description of properties', () => {
  const added: TFieldDescription = { name: 'ceilingHeight', type: 'number', group: 'facts', min: 0, max: 20 };
  const fields = [...OBJECT_FIELDS, added];

  it('is an input of the edit form, in both view modes, after the fields of its group', () => {
    expect(names(OBJECT_FIELDS)).not.toContain('ceilingHeight');
    for (const expanded of [false, true]) {
      const form = names(objectFormFields(expanded, fields));
      expect(form).toContain('ceilingHeight');
      expect(form.indexOf('ceilingHeight')).toBe(form.indexOf('dateAvailable') + 1);
    }
  });

  it('is shown on the view', () => {
    expect(names(objectViewFields(fields))).toContain('ceilingHeight');
  });

  // Drawing loads React's server renderer and Mantine first: seconds on a busy machine (a limit, not a timing).
  it('is drawn on the view, in its group’s card, with its value; a text in the texts card, a yes/no in the features', { timeout: 60_000 }, async () => {
    const text: TFieldDescription = { name: 'virtualTourURL', type: 'text', group: 'texts', max: 500 };
    const feature: TFieldDescription = { name: 'heatPump', type: 'boolNullable', group: 'comfort' };
    const html = await drawObjectView([...fields, text, feature], { ceilingHeight: 3.2, virtualTourURL: 'https://tour.example/0042', heatPump: true });
    const card = (testId: string) => cardOf(html, testId);
    expect(html).toContain('data-testid="group-facts"');
    expect(card('group-facts')).toContain('fields.object.ceilingHeight');
    // Its value as the view writes numbers (a decimal comma).
    expect(card('group-facts')).toContain('>3,2<');
    expect(card('object-texts')).toContain('fields.object.virtualTourURL');
    expect(card('object-texts')).toContain('https://tour.example/0042');
    expect(card('group-comfort')).toContain('fields.object.heatPump');
    // Each in its own card alone.
    expect(card('object-texts')).not.toContain('fields.object.ceilingHeight');
    expect(card('group-facts')).not.toContain('fields.object.virtualTourURL');
    expect(card('group-facts')).not.toContain('fields.object.heatPump');
    // Drawn from the description it is given: with the real one, neither is there.
    const real = await drawObjectView(OBJECT_FIELDS, { ceilingHeight: 3.2, virtualTourURL: 'https://tour.example/0042', heatPump: true });
    expect(real).toContain('data-testid="group-facts"');
    expect(real).not.toContain('fields.object.ceilingHeight');
    expect(real).not.toContain('fields.object.virtualTourURL');
    expect(real).not.toContain('fields.object.heatPump');
  });

  it('in the texts group, is an input of the edit form and shown on the view too', () => {
    const text: TFieldDescription = { name: 'virtualTourURL', type: 'text', group: 'texts', max: 500 };
    expect(names(objectFormFields(false, [...OBJECT_FIELDS, text]))).toContain('virtualTourURL');
    expect(names(objectViewFields([...OBJECT_FIELDS, text]))).toContain('virtualTourURL');
    // The texts the card lays out itself are not shown twice.
    expect(names(objectViewFields())).not.toContain('description');
  });

  it('is offered in the property search list’s column chooser, by its label', () => {
    expect(chooser(objectMoreColumns(fields), 'object')).toContainEqual({ key: 'ceilingHeight', label: 'fields.object.ceilingHeight' });
  });
});

describe('a field added to the description of leads', () => {
  const added: TLeadFieldDescription = { name: 'moveInDate', type: 'date', group: 'wishes' };
  const fields = [...LEAD_FIELDS, added];

  it('is an input of the edit form, in its group', () => {
    expect(names(LEAD_FIELDS)).not.toContain('moveInDate');
    expect(leadFormSections(fields).find((s) => s.group === 'wishes')!.fields.map((d) => d.name)).toContain('moveInDate');
  });

  it('is shown on the view, in its group', () => {
    expect(leadViewSections(fields).find((s) => s.group === 'wishes')!.fields.map((d) => d.name)).toContain('moveInDate');
  });

  it('is drawn on the view, in its group’s card, with its value', { timeout: 60_000 }, async () => {
    const html = await drawLeadView(fields, { moveInDate: '2027-03-01' });
    const card = cardOf(html, 'lead-group-wishes');
    expect(html).toContain('data-testid="lead-group-wishes"');
    expect(card).toContain('data-testid="lead-value-moveInDate"');
    expect(card).toContain('fields.lead.moveInDate');
    expect(card).toContain('01/03/2027');
    // Drawn from the description it is given: with the real one, it is not there.
    expect(await drawLeadView(LEAD_FIELDS, { moveInDate: '2027-03-01' })).not.toContain('lead-value-moveInDate');
  });

  it('is offered in the leads list’s column chooser, by its label', () => {
    expect(chooser(leadMoreColumns(fields), 'lead')).toContainEqual({ key: 'moveInDate', label: 'fields.lead.moveInDate' });
  });
});

describe('a field added to the description of deals', () => {
  const added: TDealFieldDescription = { name: 'notaryFee', type: 'currency', group: 'money', step: 0.01, min: 0, max: 999999999999.99 };
  const fields = [...DEAL_FIELDS, added];

  it('is an input of the deal’s page (its form, and read only its view) for a sale and for a rental', () => {
    expect(names(DEAL_FIELDS)).not.toContain('notaryFee');
    for (const dealType of [DEAL_TYPE_SALE, DEAL_TYPE_RENTAL]) {
      const page = names(dealPageFields(dealType, fields));
      expect(page.indexOf('notaryFee')).toBe(page.indexOf('commission') + 1);
    }
  });

  it('is offered in the deals list’s column chooser, by its label', () => {
    expect(chooser(dealMoreColumns(fields), 'deal')).toContainEqual({ key: 'notaryFee', label: 'fields.deal.notaryFee' });
  });
});
