import {
  ACCOUNT_FIELD_DESCRIPTIONS,
  CULTURES,
  DEAL_FIELDS,
  DEAL_RELATION,
  LEAD_FIELDS,
  MANDATE_FIELDS,
  OBJECT_EDITABLE_FIELDS,
  type TCulture,
  type TDealFieldDescription,
  type TFieldDescription,
  type TImportKind,
  type TLeadFieldDescription,
  type TObjectListName,
} from '@crm/contract';
import type { PatchableField } from '../fields/field-registry.ts';
import { accountEntity } from '../fields/entities/account.ts';
import { patchableOf } from '../objects/objects.rules.ts';
import { listOptions } from '../objects/objects.options.ts';

/**
 * The fields a column of an imported spreadsheet may fill, made from the declarative field
 * descriptions (ACCOUNT_FIELD_DESCRIPTIONS, OBJECT_FIELDS) and their single-field rules: a field
 * added there is importable without a line here, unless it is one the system or a later step sets.
 */
export type ImportField = {
  /** The mapping's key: the field's name; an owner's field on a property row is "owner.<name>". */
  key: string;
  /** Which record it fills (a mandate's owner columns find accounts: they fill the mandate). */
  target: 'account' | 'object' | 'mandate' | 'lead' | 'deal' | 'party';
  /** A deal's party column (target 'party'): the relation its people take in the deal (DEAL_RELATION). */
  relation?: number;
  /** The field (the record's table property). */
  name: string;
  def: PatchableField;
  /** The text key of its label. */
  labelKey: string;
  required: boolean;
  /** Object select lists: the list the value is chosen from. */
  list?: TObjectListName;
  /** A lead's choice read by its name (the stage, the priority, the source, the features): the list of names in imports.cells.ts. */
  choices?: 'lead.stage' | 'lead.priority' | 'lead.source' | 'lead.features' | 'deal.type' | 'deal.stage';
  /** Header texts that also name it (normalized, see normalizeHeader), besides its label in en, el and ru. */
  hints: readonly string[];
  /**
   * The person's whole name in one column, surname first ("Παπαδόπουλος Γιώργος", as the CRM shows
   * names): split at the first space into the last and the first name. Not a stored field.
   */
  fullName?: true;
};

/** Account groups an owner's row may fill (kinds, client budget, employment are the office's own work). */
const ACCOUNT_GROUPS = new Set(['names', 'company', 'personal', 'otherNames', 'contacts', 'documents', 'address', 'notes']);
/** Object fields an import leaves to later steps: publishing and the website's flags, the map (drawn on the map), the kind of offer's dates by hand. */
export const OBJECT_LEFT_OUT = new Set(['active', 'featured', 'recommended', 'soldRecently', 'reserved', 'hasBanner', 'publishRequested', 'displayAddress']);
export const OBJECT_GROUPS_LEFT_OUT = new Set(['map', 'service']);

/** Header texts people write for a field, besides its label (lower case, no accents, see normalizeHeader). */
const HINTS: Record<string, readonly string[]> = {
  fullName: ['full name', 'name', 'surname and name', 'ονοματεπωνυμο', 'ονομα επωνυμο', 'επωνυμο ονομα', 'фио', 'фамилия имя', 'имя фамилия'],
  lastName: ['surname', 'last name', 'family name', 'lastname', 'επωνυμο', 'фамилия'],
  firstName: ['first name', 'given name', 'firstname', 'ονομα', 'имя'],
  middleName: ['middle name', 'patronymic', 'πατρωνυμο', 'ονομα πατρος', 'отчество'],
  phone: ['phone', 'phones', 'telephone', 'tel', 'mobile', 'cell', 'mobile phone', 'τηλεφωνο', 'τηλεφωνα', 'τηλ', 'κινητο', 'κινητο τηλεφωνο', 'σταθερο', 'телефон', 'телефоны', 'тел', 'мобильный'],
  email: ['email', 'e-mail', 'emails', 'e-mails', 'mail', 'email address', 'ηλεκτρονικο ταχυδρομειο', 'почта', 'эл почта', 'электронная почта'],
  taxNumber: ['afm', 'αφμ', 'vat', 'vat number', 'tax number', 'tin', 'инн'],
  address: ['address', 'street', 'διευθυνση', 'οδος', 'адрес'],
  city: ['city', 'town', 'πολη', 'город'],
  postcode: ['postcode', 'post code', 'zip', 'zip code', 'τκ', 'ταχυδρομικος κωδικας', 'индекс', 'почтовый индекс'],
  notes: ['notes', 'comments', 'remarks', 'σημειωσεις', 'σχολια', 'παρατηρησεις', 'примечания', 'комментарий', 'заметки'],
  /** A mandate owner's tax office (only a mandate file has one). */
  taxOffice: ['δου', 'δ ο υ', 'doy', 'tax office', 'налоговая', 'налоговая инспекция', 'доу'],
  country: ['country', 'χωρα', 'страна'],
  nationality: ['nationality', 'εθνικοτητα', 'υπηκοοτητα', 'гражданство', 'национальность'],
  passportNumber: ['passport', 'passport number', 'διαβατηριο', 'αριθμος διαβατηριου', 'паспорт', 'номер паспорта'],
  internalPassportNumber: ['id card', 'identity card', 'ταυτοτητα', 'αδτ', 'αριθμος ταυτοτητας'],
  language: ['language', 'γλωσσα', 'язык'],
  gender: ['gender', 'sex', 'φυλο', 'пол'],
  title: ['title', 'headline', 'τιτλος', 'заголовок', 'название'],
  objectSubTypeId: ['type', 'property type', 'kind', 'ειδος', 'τυπος', 'ειδος ακινητου', 'тип', 'тип объекта', 'вид'],
  subTypeObjectTypeId: ['category', 'κατηγορια', 'категория'],
  salePrice: ['price', 'sale price', 'asking price', 'τιμη', 'τιμη πωλησης', 'цена', 'цена продажи', 'стоимость'],
  rentPrice: ['rent', 'rent price', 'monthly rent', 'ενοικιο', 'μισθωμα', 'τιμη ενοικιου', 'аренда', 'арендная плата'],
  area: ['area', 'size', 'sqm', 'm2', 'τμ', 'εμβαδον', 'εμβαδο', 'τετραγωνικα', 'площадь', 'кв м', 'м2'],
  bedrooms: ['bedrooms', 'beds', 'υπνοδωματια', 'κρεβατοκαμαρες', 'спальни', 'спален'],
  bathrooms: ['bathrooms', 'baths', 'μπανια', 'λουτρα', 'ванные', 'санузлы'],
  floor: ['floor', 'οροφος', 'οροφοσ', 'этаж'],
  levels: ['levels', 'επιπεδα', 'уровни'],
  locationId: ['location', 'place', 'region', 'neighbourhood', 'neighborhood', 'περιοχη', 'τοποθεσια', 'προαστιο', 'район', 'местоположение', 'населенный пункт'],
  zipCode: ['postcode', 'post code', 'zip', 'zip code', 'τκ', 'ταχυδρομικος κωδικας', 'индекс'],
  constructionYear: ['year built', 'construction year', 'built', 'ετος κατασκευης', 'ετος', 'год постройки'],
  renovationYear: ['renovated in', 'renovation year', 'ετος ανακαινισης', 'год ремонта'],
  description: ['description', 'περιγραφη', 'описание'],
  internalNotes: ['notes', 'internal notes', 'σημειωσεις', 'σχολια', 'примечания', 'заметки'],
  energyClass: ['energy class', 'energy', 'ενεργειακη κλαση', 'ενεργειακη κατηγορια', 'класс энергоэффективности'],
  distanceFromSea: ['distance from sea', 'from sea', 'αποσταση απο θαλασσα', 'до моря'],
  lotArea: ['plot', 'plot area', 'lot', 'οικοπεδο', 'εμβαδον οικοπεδου', 'участок', 'площадь участка'],
  averageMonthlySharedExpenses: ['common charges', 'service charge', 'κοινοχρηστα', 'коммунальные'],
  websiteCode: ['code', 'website code', 'κωδικος', 'код'],
};
/** On a property row, the owner's columns (header texts that say "owner", plus the person's own). */
const OWNER_WORDS = ['owner', 'ιδιοκτητη', 'ιδιοκτητης', 'ιδιοκτητου', 'владелец', 'владельца', 'собственник', 'собственника'];

/** The owner's fields a property row may carry. */
const OWNER_FIELDS = ['lastName', 'firstName', 'phone', 'email'] as const;
/** The owner's columns a header may name: the fields and the whole name. */
const OWNER_KEYS = [...OWNER_FIELDS, 'fullName'] as const;

/** A header or a label in one comparable form: lower case, no accents, punctuation as spaces. */
export function normalizeHeader(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function accountField(name: string, key = name): ImportField {
  const d = ACCOUNT_FIELD_DESCRIPTIONS.find((x) => x.name === name)!;
  const def: PatchableField = accountEntity.fields[name] ?? { type: d.type, max: d.max, required: d.required };
  return {
    key,
    target: 'account',
    name,
    def: { ...def, required: d.required },
    labelKey: `accounts.ui.field.${name}`,
    required: d.required === true,
    hints: (HINTS[name] ?? []).map(normalizeHeader),
  };
}

/** The whole name in one column (see ImportField.fullName). */
const fullNameField = (key: string): ImportField => ({
  key,
  target: 'account',
  name: 'fullName',
  def: { type: 'text', max: 401 },
  labelKey: 'imports.field.fullName',
  required: false,
  hints: key === 'fullName' ? (HINTS.fullName ?? []).map(normalizeHeader) : [],
  fullName: true,
});

const OWNER_IMPORT_FIELDS: readonly ImportField[] = [
  // Texts, and the gender (its words in any of the three languages, read by the import).
  ...ACCOUNT_FIELD_DESCRIPTIONS.filter((d) => ACCOUNT_GROUPS.has(d.group) && (d.type === 'text' || d.type === 'textarea' || d.name === 'gender')).map((d) => accountField(d.name)),
  fullNameField('fullName'),
];

/** A property row's fields, made from a description of a property's fields (and the owner's columns). */
export const objectImportFields = (fields: readonly TFieldDescription[]): ImportField[] => [
  ...fields.filter((d) => !d.readOnly && !OBJECT_GROUPS_LEFT_OUT.has(d.group) && !OBJECT_LEFT_OUT.has(d.name)).map(
    (d): ImportField => ({
      key: d.name,
      target: 'object',
      name: d.name,
      def: patchableOf(d),
      labelKey: `fields.object.${d.name}`,
      required: false,
      list: d.list as TObjectListName | undefined,
      hints: (HINTS[d.name] ?? []).map(normalizeHeader),
    }),
  ),
  ...OWNER_FIELDS.map((name) => {
    const f = accountField(name, `owner.${name}`);
    // Required only on a row that names an owner at all (judged per row).
    return { ...f, required: false, def: { ...f.def, required: false }, hints: [] };
  }),
  fullNameField('owner.fullName'),
];
const OBJECT_IMPORT_FIELDS: readonly ImportField[] = objectImportFields(OBJECT_EDITABLE_FIELDS);

/** Header texts people write for a mandate's field (normalized, see normalizeHeader). */
const MANDATE_HINTS: Record<string, readonly string[]> = {
  referenceNumber: ['reference', 'reference number', 'ref', 'ref no', 'property', 'property code', 'code', 'κωδικος', 'κωδικος ακινητου', 'αριθμος ακινητου', 'ακινητο', 'код', 'код объекта', 'номер объекта', 'объект'],
  kind: ['type', 'kind', 'mandate', 'mandate type', 'ειδος', 'εντολη', 'τυπος εντολης', 'тип', 'вид', 'тип договора'],
  startDate: ['start', 'from', 'start date', 'starts', 'εναρξη', 'απο', 'ημερομηνια εναρξης', 'начало', 'дата начала', 'с'],
  endDate: ['end', 'until', 'to', 'end date', 'expiry', 'expires', 'ληξη', 'εως', 'ημερομηνια ληξης', 'окончание', 'дата окончания', 'по'],
  extendedUntil: ['extension', 'extended to', 'παραταση', 'продление', 'продлен до'],
  askingPrice: ['price', 'asking price', 'τιμη', 'τιμημα', 'ζητουμενη τιμη', 'цена', 'запрашиваемая цена'],
  commissionPercent: ['commission', 'commission percent', 'αμοιβη', 'προμηθεια', 'αμοιβη μεσιτη', 'комиссия', 'комиссия процент'],
  commissionAmount: ['commission amount', 'commission eur', 'αμοιβη ευρω', 'προμηθεια ευρω', 'комиссия сумма', 'комиссия евро'],
  exceptions: ['exceptions', 'excluded buyers', 'εξαιρεσεις', 'исключения'],
  notes: ['notes', 'comments', 'σημειωσεις', 'παρατηρησεις', 'примечания', 'заметки'],
};
/** Words of a mandate file's owner columns ("ΑΦΜ εντολέα"), besides OWNER_WORDS. */
const MANDATOR_WORDS = [...OWNER_WORDS, 'mandator', 'principal', 'εντολεα', 'εντολεας', 'доверитель', 'доверителя'];

const mandateField = (name: string, def: PatchableField, labelKey: string, required = false): ImportField => ({
  key: name,
  target: 'mandate',
  name,
  def: { ...def, required },
  labelKey,
  required,
  hints: (MANDATE_HINTS[name] ?? []).map(normalizeHeader),
});

/**
 * A mandate's row (decision 094): the property by its reference number, the kind, the dates, the
 * money, the named exceptions ("name (note); name"), the notes; its owners by their accounts'
 * tax number, e-mail or phone (none: the property's owners, as the form starts with them), and
 * their tax offices (decision 096).
 */
const MANDATE_IMPORT_FIELDS: readonly ImportField[] = [
  mandateField('referenceNumber', { type: 'text', max: 20 }, 'imports.field.referenceNumber', true),
  ...MANDATE_FIELDS.map((d) =>
    mandateField(d.name, d.name === 'kind' ? { type: 'text', max: 100 } : { type: d.type, max: d.max, min: d.min }, `mandates.field.${d.name}`, d.required === true),
  ),
  mandateField('exceptions', { type: 'textarea', max: 20000 }, 'mandates.field.exceptions'),
  ...(['taxNumber', 'email', 'phone'] as const).map((name) => ({ ...accountField(name, `owner.${name}`), target: 'mandate' as const, required: false, hints: [] })),
  // The owners' tax offices (ΔΟΥ), one per owner in their order: the mandate keeps it, accounts do not (decision 079).
  { key: 'owner.taxOffice', target: 'mandate', name: 'taxOffice', def: { type: 'text', max: 1000, required: false }, labelKey: 'mandates.owner.taxOffice', required: false, hints: [] },
];

/** Header texts people write for a lead's field (normalized, see normalizeHeader), besides its label. */
const LEAD_HINTS: Record<string, readonly string[]> = {
  source: ['source', 'lead source', 'πηγη', 'προελευση', 'источник'],
  stage: ['stage', 'status', 'σταδιο', 'κατασταση', 'этап', 'статус'],
  priority: ['priority', 'προτεραιοτητα', 'приоритет'],
  locationId: HINTS.locationId!,
  objectSubTypes: ['property type', 'property types', 'type', 'ειδος', 'ειδος ακινητου', 'τυπος ακινητου', 'тип', 'тип объекта'],
  features: ['features', 'χαρακτηριστικα', 'παροχες', 'особенности', 'удобства'],
  description: ['description', 'request', 'notes', 'περιγραφη', 'ζητουμενο', 'σημειωσεις', 'описание', 'запрос', 'примечания'],
};
/** The lead's choices read by their names (see ImportField.choices). */
const LEAD_CHOICES: Record<string, ImportField['choices']> = { stage: 'lead.stage', priority: 'lead.priority', source: 'lead.source', features: 'lead.features' };

/**
 * A lead's row: the client (the whole name or the two names, phones, e-mails: an account found by
 * its phone or e-mail as an owner's is, else a new client) and every described field of a lead
 * (LEAD_FIELDS): a field added there is importable without a line here.
 */
export const leadImportFields = (fields: readonly TLeadFieldDescription[]): ImportField[] => [
  ...(['lastName', 'firstName', 'phone', 'email'] as const).map((name) => {
    const f = accountField(name);
    // Required only on a row that names no client by its whole name (judged per row, as a property's owner is).
    return { ...f, required: false, def: { ...f.def, required: false } };
  }),
  fullNameField('fullName'),
  ...fields.map(
    (d): ImportField => ({
      key: d.name,
      target: 'lead',
      name: d.name,
      def: { type: d.type, max: d.max, min: d.min, integer: d.integer },
      labelKey: `fields.lead.${d.name}`,
      required: false,
      list: d.list === 'objectSubTypes' ? 'objectSubTypes' : undefined,
      choices: LEAD_CHOICES[d.name],
      hints: (LEAD_HINTS[d.name] ?? []).map(normalizeHeader),
    }),
  ),
];
const LEAD_IMPORT_FIELDS: readonly ImportField[] = leadImportFields(LEAD_FIELDS);

/** Header texts people write for a deal's field (normalized, see normalizeHeader), besides its label and Deals.xlsx's heads. */
const DEAL_HINTS: Record<string, readonly string[]> = {
  referenceNumber: MANDATE_HINTS.referenceNumber!,
  dealType: ['type', 'deal type', 'kind', 'ειδος', 'τυπος', 'ειδος συναλλαγης', 'συναλλαγη', 'тип', 'тип сделки', 'вид сделки'],
  dealStage: ['stage', 'status', 'σταδιο', 'κατασταση', 'этап', 'статус', 'стадия'],
  // A rental's price is its rent.
  price: ['price', 'final price', 'sale price', 'τιμη', 'τελικη τιμη', 'τιμημα', 'цена', 'итоговая цена', 'rent', 'ενοικιο', 'μισθωμα', 'аренда'],
  commission: ['commission', 'fee', 'αμοιβη', 'προμηθεια', 'αμοιβη γραφειου', 'комиссия'],
  deposit: ['deposit', 'προκαταβολη', 'αρραβωνας', 'εγγυηση', 'задаток', 'залог'],
  endDate: ['closing date', 'contract date', 'signed on', 'ημερομηνια συμβολαιου', 'συμβολαιο', 'дата договора', 'дата сделки'],
  notes: ['notes', 'comments', 'σημειωσεις', 'σχολια', 'παρατηρησεις', 'примечания', 'комментарий', 'заметки'],
};
/** Header texts that name a deal's client (its whole name): the buyer or tenant. */
const DEAL_CLIENT_HINTS = ['αγοραστης', 'μισθωτης', 'ενοικιαστης', 'πελατης', 'buyer', 'tenant', 'client', 'покупатель', 'арендатор', 'клиент'];
/**
 * A deal's people other than its client, by name: the agency's agent in charge (an employee, by the
 * full name or the e-mail, as the deal list's agent filter offers them), the lawyer and the notary
 * (accounts by their names). Several in one cell are separated by commas, as Deals.xlsx writes them.
 */
const DEAL_PARTY_COLUMNS: readonly { key: string; relation: number; labelKey: string; hints: readonly string[] }[] = [
  {
    key: 'agent',
    relation: DEAL_RELATION.assigned,
    labelKey: 'imports.field.agent',
    hints: ['agent', 'agents', 'agent in charge', 'assigned', 'assigned to', 'responsible', 'salesperson', 'broker', 'realtor', 'πρακτορας', 'υπευθυνος', 'υπευθυνος πρακτορας', 'συνεργατης γραφειου', 'μεσιτης', 'агент', 'ответственный', 'ответственный агент', 'риелтор', 'риэлтор', 'менеджер'],
  },
  { key: 'lawyer', relation: DEAL_RELATION.lawer, labelKey: `deals.relation.${DEAL_RELATION.lawer}`, hints: ['lawyer', 'attorney', 'solicitor', 'legal', 'δικηγορος', 'νομικος', 'юрист', 'адвокат'] },
  { key: 'notary', relation: DEAL_RELATION.notary, labelKey: `deals.relation.${DEAL_RELATION.notary}`, hints: ['notary', 'notary public', 'συμβολαιογραφος', 'нотариус'] },
];
/** A deal's choices read by their names in any language (see ImportField.choices). */
const DEAL_CHOICES: Record<string, ImportField['choices']> = { dealType: 'deal.type', dealStage: 'deal.stage' };

/**
 * A deal's row: the property by its reference number (required), the client, buyer or tenant (the
 * whole name or the two names, phones, e-mails: an account found by its phone or e-mail as a lead's
 * client is, else a new client), and every described field of a deal (DEAL_FIELDS): a field added
 * there is importable without a line here. The type and the stage are read by their names.
 */
export const dealImportFields = (fields: readonly TDealFieldDescription[]): ImportField[] => [
  { key: 'referenceNumber', target: 'deal', name: 'referenceNumber', def: { type: 'text', max: 20, required: true }, labelKey: 'imports.field.referenceNumber', required: true, hints: DEAL_HINTS.referenceNumber!.map(normalizeHeader) },
  ...(['lastName', 'firstName', 'phone', 'email'] as const).map((name) => {
    const f = accountField(name);
    // Required only on a row that names a client and not by the whole name (judged per row).
    return { ...f, required: false, def: { ...f.def, required: false } };
  }),
  { ...fullNameField('fullName'), hints: [...fullNameField('fullName').hints, ...DEAL_CLIENT_HINTS.map(normalizeHeader)] },
  ...fields.map(
    (d): ImportField => ({
      key: d.name,
      target: 'deal',
      name: d.name,
      def: { type: d.type, max: d.max, min: d.min, integer: d.integer },
      labelKey: `fields.deal.${d.name}`,
      required: d.required === true,
      choices: DEAL_CHOICES[d.name],
      hints: (DEAL_HINTS[d.name] ?? []).map(normalizeHeader),
    }),
  ),
  ...DEAL_PARTY_COLUMNS.map(
    (c): ImportField => ({ key: c.key, target: 'party', name: c.key, relation: c.relation, def: { type: 'text', max: 1000, required: false }, labelKey: c.labelKey, required: false, hints: c.hints.map(normalizeHeader) }),
  ),
];
const DEAL_IMPORT_FIELDS: readonly ImportField[] = dealImportFields(DEAL_FIELDS);
/** Deals.xlsx's heads that name an import's field (a list's file read back): its property, type, stage and buyer. */
const DEAL_FILE_HEADS: Record<string, string> = {
  'deals.ui.col.object': 'referenceNumber',
  'deals.ui.col.type': 'dealType',
  'deals.ui.col.stage': 'dealStage',
  'deals.relation.2': 'fullName',
  [`deals.relation.${DEAL_RELATION.assigned}`]: 'agent',
};

export const importFields = (kind: TImportKind): readonly ImportField[] =>
  kind === 'owners'
    ? OWNER_IMPORT_FIELDS
    : kind === 'mandates'
      ? MANDATE_IMPORT_FIELDS
      : kind === 'leads'
        ? LEAD_IMPORT_FIELDS
        : kind === 'deals'
          ? DEAL_IMPORT_FIELDS
          : OBJECT_IMPORT_FIELDS;

type Translate = (culture: TCulture, key: string, params?: Record<string, string | number>) => string;

/** A field's label in one language (an owner's field on a property row: "Owner: Surname"). */
export function fieldLabel(t: Translate, culture: TCulture, f: ImportField): string {
  const label = t(culture, f.labelKey);
  return f.key.startsWith('owner.') ? t(culture, 'imports.ownerField', { field: label }) : label;
}

/**
 * The field proposed for each column, from its header: a field's label in en, el or ru, or one of
 * the texts people write for it ("Κινητό", "Τ.Μ.", "Фамилия"); on a property row a header that
 * names the owner ("Επώνυμο ιδιοκτήτη", "Owner phone") proposes the owner's field. A field is
 * proposed for one column only (the first that names it); '' where nothing fits.
 */
export function guessMapping(t: Translate, kind: TImportKind, headers: readonly string[]): string[] {
  const fields = importFields(kind);
  const names = new Map<string, ImportField>();
  const add = (text: string, f: ImportField) => {
    const n = normalizeHeader(text);
    if (n && !names.has(n)) names.set(n, f);
  };
  // Labels told apart only by a sign ("Commission (%)", "Commission (€)") are found by it first.
  const signed = new Map<string, ImportField>();
  const withSigns = (text: string) => normalizeHeader(text.replace(/%/g, ' percent ').replace(/€/g, ' eur '));
  // Labels first (the template's headers are labels), then the hints.
  for (const culture of CULTURES) for (const f of fields) {
    const n = withSigns(fieldLabel(t, culture, f));
    if (n && !signed.has(n)) signed.set(n, f);
  }
  for (const culture of CULTURES) for (const f of fields) add(fieldLabel(t, culture, f), f);
  if (kind === 'deals') for (const culture of CULTURES) for (const [head, key] of Object.entries(DEAL_FILE_HEADS)) add(t(culture, head), fields.find((f) => f.key === key)!);
  for (const f of fields) for (const h of f.hints) add(h, f);
  if (kind === 'mandates') {
    // "ΑΦΜ εντολέα", "Owner e-mail"; and a mandate file's plain "ΑΦΜ", "Email" are its owner's.
    for (const f of fields.filter((x) => x.key.startsWith('owner.'))) {
      const own = (HINTS[f.name] ?? []).map(normalizeHeader);
      for (const culture of CULTURES) own.push(normalizeHeader(t(culture, f.labelKey)));
      for (const w of MANDATOR_WORDS) for (const h of own) {
        add(`${h} ${w}`, f);
        add(`${w} ${h}`, f);
      }
      for (const h of own) add(h, f);
    }
  }
  if (kind === 'objects') {
    for (const name of OWNER_KEYS) {
      const f = fields.find((x) => x.key === `owner.${name}`)!;
      const own = (HINTS[name] ?? []).map(normalizeHeader);
      for (const culture of CULTURES) own.push(normalizeHeader(t(culture, f.labelKey)));
      for (const w of OWNER_WORDS) for (const h of own) {
        add(`${h} ${w}`, f);
        add(`${w} ${h}`, f);
      }
    }
    // A property file's plain "Surname", "Phone" are the owner's (a property has neither).
    for (const name of OWNER_KEYS) {
      const f = fields.find((x) => x.key === `owner.${name}`)!;
      for (const h of HINTS[name] ?? []) add(h, f);
      for (const culture of CULTURES) add(t(culture, f.labelKey), f);
    }
  }
  const used = new Set<string>();
  return headers.map((h) => {
    const f = signed.get(withSigns(h)) ?? names.get(normalizeHeader(h));
    if (!f || used.has(f.key)) return '';
    used.add(f.key);
    return f.key;
  });
}

/** The options of an object select list in every language, by their text (normalized) and by their id. */
export function listChoices(t: Translate, list: TObjectListName): Map<string, number> {
  const m = new Map<string, number>();
  for (const culture of CULTURES) {
    for (const o of listOptions((k) => t(culture, k), list)) {
      m.set(normalizeHeader(o.text), Number(o.value));
      m.set(String(o.value), Number(o.value));
    }
  }
  return m;
}

/** The fields shown in the downloadable template, in its order. */
export const TEMPLATE_FIELDS: Record<TImportKind, readonly string[]> = {
  owners: ['lastName', 'firstName', 'phone', 'email', 'taxNumber', 'address', 'city', 'postcode', 'country', 'notes'],
  objects: [
    'title', 'objectSubTypeId', 'locationId', 'address', 'zipCode', 'salePrice', 'rentPrice', 'area', 'bedrooms', 'bathrooms', 'floor',
    'constructionYear', 'energyClass', 'description', 'owner.lastName', 'owner.firstName', 'owner.phone', 'owner.email',
  ],
  mandates: [
    'referenceNumber', 'kind', 'startDate', 'endDate', 'extendedUntil', 'askingPrice', 'commissionPercent', 'commissionAmount', 'owner.taxNumber', 'owner.email', 'owner.phone',
    'owner.taxOffice', 'exceptions', 'notes',
  ],
  leads: ['lastName', 'firstName', 'phone', 'email', ...LEAD_FIELDS.map((d) => d.name)],
  deals: ['referenceNumber', 'lastName', 'firstName', 'phone', 'email', ...DEAL_FIELDS.map((d) => d.name), ...DEAL_PARTY_COLUMNS.map((c) => c.key)],
};
