import { sql } from 'drizzle-orm';
import type { Tx } from '../client.ts';
import {
  BULGARIAN_FEMALE, BULGARIAN_MALE, BULGARIAN_SURNAMES, ENGLISH_FEMALE, ENGLISH_MALE, ENGLISH_SURNAMES, GERMAN_FEMALE,
  GERMAN_MALE, GERMAN_SURNAMES, GREEK_FEMALE, GREEK_MALE, GREEK_PLACES, GREEK_STREETS, GREEK_SURNAMES, RUSSIAN_FEMALE,
  RUSSIAN_MALE, RUSSIAN_PATRONYMICS, RUSSIAN_SURNAMES, makeAfm, toMailPart,
} from './demo-names.ts';
import { createClock, createRng, type Clock, type Rng } from './demo-time.ts';
import {
  AREAS, PROPERTIES, clientActivity, clientNote, ownerActivity, ownerNote, partnerActivity, specialistActivity,
  type ActivityText, type Ctx, type Specialty,
} from './demo-texts.ts';

/**
 * The demo agency's people: staff, lead sources, owners, clients, specialists and partners of a
 * real-estate agency in Thessaloniki, with their calls, meetings, viewings and notes and the
 * employees assigned to them. Deterministic (seeded); dates are relative to today.
 */

type Nat = 'gr' | 'ru' | 'en' | 'de' | 'bg';
type Row = Record<string, unknown>;
type Demo = {
  row: Row;
  nat: Nat;
  /** Language the staff write about this account in. */
  lang: 'el' | 'en';
  created: Date;
  /** Index of the employee responsible for the account. */
  responsible?: number;
  owner?: boolean;
  client?: boolean;
  forRent?: boolean;
  specialty?: Specialty;
  partner?: 'realEstate' | 'tourism';
  ctx?: Ctx;
};
type DemoActivity = {
  text: ActivityText;
  done: boolean | null;
  date: Date | null;
  doneDate: Date | null;
  created: Date;
  assignedTo: number | null;
  /** Indexes of linked accounts; the first is the record it was created on. */
  links: number[];
};

const AGENCY_DOMAIN = 'thermaikos-homes.gr';

const ACCOUNT_COLUMNS = [
  'id', 'first_name', 'last_name', 'middle_name', 'name', 'name_eng', 'name_local', 'first_name_eng', 'last_name_eng',
  'middle_name_eng', 'is_owner', 'is_client', 'is_employe', 'is_source', 'is_professional', 'is_partner_real_estate',
  'is_partner_tourism', 'is_company', 'is_individual', 'is_attorney', 'is_notary', 'is_lawyer', 'is_worker',
  'is_electrician', 'is_construction_engineer', 'is_cleaner', 'is_interior_designer', 'is_translator', 'is_accountant',
  'is_economist', 'is_landscape_designer', 'is_security_service', 'is_plumber', 'is_locksmith', 'is_it',
  'is_web_designer', 'is_energy_supply_company', 'is_electrical_store', 'is_technician', 'is_real_estate_agency_or_broker',
  'purchase_budget_range_min', 'purchase_budget_range_max', 'language', 'country', 'nationality', 'company_type',
  'emails', 'phones', 'internal_passport_number', 'passport_number', 'tax_number', 'city', 'postcode', 'address',
  'start_date', 'role', 'branch_id', 'notes', 'number_of_sold_objects', 'is_client_date', 'is_owner_date', 'source_id',
  'service', 'created_on', 'created_by', 'modified_on', 'modified_by',
] as const;
const NOT_NULL_DEFAULTS: Row = { emails: [], phones: [], number_of_sold_objects: 0 };

function greekMobile(rng: Rng) {
  return `+30 69${rng.pick(['0', '3', '4', '5', '7', '8', '9'])} ${rng.digits(3)} ${rng.digits(4)}`;
}
function thessalonikiLandline(rng: Rng) {
  return `+30 2310 ${rng.int(2, 9)}${rng.digits(5)}`;
}
function greekAddress(rng: Rng): Row {
  const [city, codes] = rng.pick(GREEK_PLACES);
  return { city, postcode: rng.pick(codes), address: `${rng.pick(GREEK_STREETS)} ${rng.int(1, 180)}` };
}

/** Country and nationality as the office writes them, in Greek (a Russian client: Ρωσία, Ρωσική). */
const FOREIGN: Record<Exclude<Nat, 'gr'>, { language: string; country: string; nationality: string; places: [string, string][]; mail: string[] }> = {
  ru: {
    language: 'ru', country: 'Ρωσία', nationality: 'Ρωσική',
    places: [['Москва', '119049'], ['Санкт-Петербург', '191025'], ['Екатеринбург', '620014'], ['Краснодар', '350000']],
    mail: ['mail.ru', 'yandex.ru', 'gmail.com'],
  },
  en: {
    language: 'en', country: 'Ηνωμένο Βασίλειο', nationality: 'Βρετανική',
    places: [['London', 'SE10 8XJ'], ['Manchester', 'M20 2RN'], ['Bristol', 'BS8 1TH'], ['Leeds', 'LS6 3HN']],
    mail: ['gmail.com', 'outlook.com', 'btinternet.com'],
  },
  de: {
    language: 'de', country: 'Γερμανία', nationality: 'Γερμανική',
    places: [['München', '80331'], ['Stuttgart', '70173'], ['Köln', '50667'], ['Düsseldorf', '40210']],
    mail: ['gmx.de', 'web.de', 't-online.de'],
  },
  bg: {
    language: 'bg', country: 'Βουλγαρία', nationality: 'Βουλγαρική',
    places: [['София', '1000'], ['Пловдив', '4000'], ['Благоевград', '2700']],
    mail: ['abv.bg', 'gmail.com'],
  },
};

function foreignPhone(rng: Rng, nat: Exclude<Nat, 'gr'>) {
  switch (nat) {
    case 'ru':
      return `+7 9${rng.digits(2)} ${rng.digits(3)}-${rng.digits(2)}-${rng.digits(2)}`;
    case 'en':
      return `+44 7${rng.digits(3)} ${rng.digits(6)}`;
    case 'de':
      return `+49 1${rng.pick(['51', '52', '60', '70', '76'])} ${rng.digits(8)}`;
    case 'bg':
      return `+359 8${rng.pick(['7', '8', '9'])} ${rng.digits(3)} ${rng.digits(4)}`;
  }
}

/** A private person of a nationality: names in both scripts, contacts, address, documents. */
function makePerson(rng: Rng, nat: Nat, female: boolean, opts: { resident?: boolean; afm?: number } = {}): Row {
  const row: Row = {};
  let latinFirst: string;
  let latinLast: string;
  if (nat === 'gr' || nat === 'ru' || nat === 'bg') {
    const pool = nat === 'gr' ? GREEK_SURNAMES : nat === 'ru' ? RUSSIAN_SURNAMES : BULGARIAN_SURNAMES;
    const firsts = nat === 'gr' ? (female ? GREEK_FEMALE : GREEK_MALE) : nat === 'ru' ? (female ? RUSSIAN_FEMALE : RUSSIAN_MALE) : female ? BULGARIAN_FEMALE : BULGARIAN_MALE;
    const s = rng.pick(pool);
    const f = rng.pick(firsts);
    row.last_name = female ? s[1] : s[0];
    row.first_name = f[0];
    latinLast = female ? s[3] : s[2];
    latinFirst = f[1];
    if (nat !== 'gr' || rng.chance(0.3)) {
      row.last_name_eng = latinLast;
      row.first_name_eng = latinFirst;
    }
    if (nat === 'ru' && rng.chance(0.5)) {
      const p = rng.pick(RUSSIAN_PATRONYMICS);
      row.middle_name = female ? p[1] : p[0];
      row.middle_name_eng = female ? p[3] : p[2];
    }
  } else {
    latinLast = rng.pick(nat === 'en' ? ENGLISH_SURNAMES : GERMAN_SURNAMES);
    latinFirst = rng.pick(nat === 'en' ? (female ? ENGLISH_FEMALE : ENGLISH_MALE) : female ? GERMAN_FEMALE : GERMAN_MALE);
    row.last_name = latinLast;
    row.first_name = latinFirst;
  }

  const first = toMailPart(latinFirst);
  const last = toMailPart(latinLast);
  const domain = nat === 'gr' ? rng.weighted([['gmail.com', 50], ['yahoo.gr', 15], ['hotmail.com', 10], ['otenet.gr', 12], ['outlook.com', 8]] as const) : rng.pick(FOREIGN[nat].mail);
  const local = rng.weighted([[`${first[0]}.${last}`, 4], [`${first}.${last}`, 3], [`${last}${first[0]}${rng.int(60, 99)}`, 2], [`${first}${rng.int(1, 999)}`, 1]] as const);
  const emails = [`${local}@${domain}`];
  if (rng.chance(0.08)) emails.push(`${first[0]}${last}@${rng.pick(['icloud.com', 'gmail.com'])}`);
  row.emails = rng.chance(0.92) ? emails : [];

  if (nat === 'gr') {
    row.phones = rng.chance(0.2) ? [greekMobile(rng), thessalonikiLandline(rng)] : [greekMobile(rng)];
    Object.assign(row, greekAddress(rng));
    if (rng.chance(0.6)) Object.assign(row, { language: 'el', country: 'Ελλάδα', nationality: 'Ελληνική' });
    if (rng.chance(opts.afm ?? 0.55)) row.tax_number = makeAfm(`${rng.pick(['0', '1'])}${rng.digits(7)}`);
    if (rng.chance(0.1)) row.passport_number = `A${rng.pick(['K', 'M', 'N', 'O', 'P', 'T'])}${rng.digits(7)}`;
    return row;
  }
  const f = FOREIGN[nat];
  Object.assign(row, { language: f.language, country: opts.resident ? 'Ελλάδα' : f.country, nationality: f.nationality });
  row.phones = opts.resident || rng.chance(0.25) ? [foreignPhone(rng, nat), greekMobile(rng)] : [foreignPhone(rng, nat)];
  if (opts.resident) Object.assign(row, greekAddress(rng));
  else if (rng.chance(0.7)) {
    const [city, postcode] = rng.pick(f.places);
    Object.assign(row, { city, postcode });
  }
  if (rng.chance(0.6)) {
    row.passport_number =
      nat === 'ru' ? `7${rng.int(0, 9)} ${rng.digits(7)}` : nat === 'de' ? `C${rng.digits(2)}${rng.pick(['F', 'G', 'H', 'J', 'K', 'L'])}${rng.digits(5)}` : rng.digits(9);
  }
  if (nat === 'ru' && rng.chance(0.3)) row.internal_passport_number = `${rng.digits(2)} ${rng.digits(2)} ${rng.digits(6)}`;
  if (rng.chance(opts.afm ?? 0.3)) row.tax_number = makeAfm(`1${rng.digits(7)}`);
  return row;
}

const LEGAL_FORMS = new Set(['&', 'sa', 'oe', 'ike', 'sia', 'ltd', 'llc', 'law', 'firm', 'gmbh', 'eood']);

/** A firm with an office in Thessaloniki or Kalamaria; its web domain is made from its Latin name. */
function company(rng: Rng, name: string, companyType: string, extra: Row = {}): Row {
  const words = String(extra.name_eng ?? '').split(/\s+/).map(toMailPart).filter((w) => w && !LEGAL_FORMS.has(w));
  const [city, codes] = rng.pick(GREEK_PLACES.slice(0, 4));
  return {
    name,
    is_company: true,
    is_individual: false,
    company_type: companyType,
    emails: words.length ? [`info@${words.slice(0, 2).join('-')}.gr`] : [],
    phones: [thessalonikiLandline(rng)],
    tax_number: makeAfm(`0${rng.pick(['9', '8'])}${rng.digits(6)}`),
    city,
    postcode: rng.pick(codes),
    address: `${rng.pick(GREEK_STREETS)} ${rng.int(1, 180)}`,
    ...extra,
  };
}

function money5k(rng: Rng, min: number, max: number) {
  return Math.round(rng.int(min, max) / 5000) * 5000;
}

/** Builds the demo agency in memory (no database access). */
export function buildDemoAgency(clock: Clock, seed = 20240517) {
  const rng = createRng(seed);
  const accounts: Demo[] = [];
  const add = (d: Demo) => accounts.push(d) - 1;
  const createdDaysAgo = (min: number, max: number) => clock.past(-rng.int(min, max), rng.int(8, 19), rng.pick([0, 10, 15, 20, 30, 40, 45, 50]));
  const ctx = (): Ctx => ({ rng, area: rng.pick(AREAS), prop: rng.pick(PROPERTIES), price: money5k(rng, 70000, 650000), year: Number(clock.dateOnly(clock.now).slice(0, 4)) });

  // Staff: one administrator, one colleague at the branch, a Russian-speaking agent for the buyers from abroad.
  const staff: [string, string, string, string, 'admin' | 'employee', number | null, string, string][] = [
    ['Παπαδόπουλος', 'Γιώργος', 'Papadopoulos', 'Giorgos', 'admin', null, '2012-03-01', 'Διευθυντής του γραφείου, υπεύθυνος συνεργασιών.'],
    ['Καραγιάννη', 'Ελένη', 'Karagianni', 'Eleni', 'employee', null, '2015-09-14', 'Πωλήσεις κατοικιών, ανατολική Θεσσαλονίκη (Καλαμαριά, Πυλαία, Πανόραμα).'],
    ['Νικολάου', 'Δημήτρης', 'Nikolaou', 'Dimitris', 'employee', null, '2017-02-01', 'Ενοικιάσεις και διαχείριση ακινήτων.'],
    ['Βασιλείου', 'Μαρία', 'Vasileiou', 'Maria', 'employee', null, '2018-05-21', 'Κέντρο και δυτικά προάστια· επαγγελματικοί χώροι.'],
    ['Γεωργιάδης', 'Κωνσταντίνος', 'Georgiadis', 'Konstantinos', 'employee', 1, '2019-04-01', 'Υποκατάστημα· εξοχικές κατοικίες σε Χαλκιδική, Περαία και Νέα Μηχανιώνα.'],
    ['Ιωάννου', 'Σοφία', 'Ioannou', 'Sofia', 'employee', null, '2021-10-04', 'Υποδοχή πελατών, ραντεβού και υποδείξεις.'],
    ['Петрова', 'Анна', 'Petrova', 'Anna', 'employee', null, '2020-06-15', 'Πελάτες από Ρωσία, Ουκρανία και Βουλγαρία (ρωσικά, αγγλικά, ελληνικά).'],
    ['Θεοδωρίδης', 'Στέλιος', 'Theodoridis', 'Stelios', 'employee', null, '2023-01-09', 'Νέος συνεργάτης· οικόπεδα και μονοκατοικίες (Θέρμη, Επανομή).'],
  ];
  const employees = staff.map(([last, first, lastEng, firstEng, role, branchId, start, notes], i) => {
    const russian = i === 6;
    return add({
      nat: russian ? 'ru' : 'gr',
      lang: 'el',
      created: createdDaysAgo(725, 730),
      row: {
        last_name: last, first_name: first, last_name_eng: lastEng, first_name_eng: firstEng,
        is_employe: true, role, branch_id: branchId, start_date: start, notes,
        emails: [`${toMailPart(firstEng)[0]}.${toMailPart(lastEng)}@${AGENCY_DOMAIN}`],
        phones: [greekMobile(rng), `+30 2310 4${rng.digits(5)}`],
        language: russian ? 'ru' : 'el', country: 'Ελλάδα', nationality: russian ? 'Ρωσική' : 'Ελληνική',
        ...greekAddress(rng),
        tax_number: makeAfm(`${rng.pick(['0', '1'])}${rng.digits(7)}`),
      },
    });
  });
  const sales = employees.filter((_, i) => i !== 0 && i !== 5);
  const russianDesk = employees[6]!;
  const branchAgent = employees[4]!;

  // Where clients come from.
  const sourceSpecs: [string, string, string][] = [
    ['Spitogatos.gr', 'Πύλη ακινήτων', 'Πακέτο Premium, 60 αγγελίες· ανανέωση κάθε Ιανουάριο.'],
    ['XE.gr (Χρυσή Ευκαιρία)', 'Αγγελίες', 'Συνδρομή επαγγελματία, 40 αγγελίες.'],
    ['Facebook', 'Μέσα κοινωνικής δικτύωσης', 'Σελίδα του γραφείου και διαφημίσεις για Θεσσαλονίκη και Χαλκιδική.'],
    ['Instagram', 'Μέσα κοινωνικής δικτύωσης', 'Reels με βίντεο ακινήτων.'],
    [`Ιστοσελίδα ${AGENCY_DOMAIN}`, 'Δική μας ιστοσελίδα', 'Φόρμα επικοινωνίας και αιτήματα υπόδειξης από τη σελίδα μας.'],
    ['Επίσκεψη στο γραφείο', 'Επίσκεψη χωρίς ραντεβού', 'Πελάτες που μπήκαν στο γραφείο χωρίς ραντεβού.'],
    ['Σύσταση πελάτη', 'Σύσταση', 'Συστάσεις από παλιούς πελάτες και ιδιοκτήτες.'],
    ['Πινακίδα στο ακίνητο', 'Πινακίδα', 'Κλήσεις από τις πινακίδες «Πωλείται / Ενοικιάζεται».'],
    ['Google Ads', 'Διαφήμιση', 'Καμπάνια αναζήτησης «διαμερίσματα Θεσσαλονίκη».'],
    ['Cian.ru', 'Πύλη ακινήτων (Ρωσία)', 'Αγγελίες στα ρωσικά για αγοραστές από Ρωσία.'],
    ['Rightmove Overseas', 'Πύλη ακινήτων (Ηνωμένο Βασίλειο)', 'Αγγελίες για Βρετανούς αγοραστές, κυρίως στη Χαλκιδική.'],
    ['Imot.bg', 'Πύλη ακινήτων (Βουλγαρία)', 'Αγγελίες για Βούλγαρους αγοραστές εξοχικών.'],
  ];
  const sources = sourceSpecs.map(([name, type, notes]) =>
    add({
      nat: 'gr',
      lang: 'el',
      created: createdDaysAgo(690, 730),
      row: { name, is_company: true, is_individual: false, company_type: type, is_source: true, notes },
    }),
  );
  const [spitogatos, xe, facebook, instagram, website, walkIn, referral, signboard, googleAds, cian, rightmove, imot] = sources as [number, number, number, number, number, number, number, number, number, number, number, number];

  // Specialists the agency works with.
  type SpecSpec = { specialty: Specialty; flags: string[]; n: number; firm?: [string, string, string][] };
  const specSpecs: SpecSpec[] = [
    { specialty: 'lawyer', flags: ['is_lawyer'], n: 5, firm: [['Δικηγορική Εταιρεία Λαζαρίδης & Συνεργάτες', 'Lazaridis & Partners Law Firm', 'Δικηγορική εταιρεία']] },
    { specialty: 'notary', flags: ['is_notary'], n: 4 },
    { specialty: 'engineer', flags: ['is_construction_engineer'], n: 5, firm: [['Τεχνική Εταιρεία Θερμαϊκός Ε.Π.Ε.', 'Thermaikos Engineering Ltd', 'Τεχνική εταιρεία']] },
    { specialty: 'electrician', flags: ['is_electrician'], n: 4 },
    { specialty: 'plumber', flags: ['is_plumber'], n: 3 },
    { specialty: 'translator', flags: ['is_translator'], n: 3 },
    { specialty: 'accountant', flags: ['is_accountant'], n: 3, firm: [['Λογιστικό Γραφείο Σαββίδης Ο.Ε.', 'Savvidis Accounting', 'Λογιστικό γραφείο']] },
    { specialty: 'cleaner', flags: ['is_cleaner'], n: 0, firm: [['Καθαρισμοί Λευκός Πύργος', 'Lefkos Pyrgos Cleaning', 'Εταιρεία καθαρισμού'], ['Λαμπερό Σπίτι Ι.Κ.Ε.', 'Lampero Spiti', 'Εταιρεία καθαρισμού']] },
    { specialty: 'designer', flags: ['is_interior_designer'], n: 2 },
    { specialty: 'technician', flags: ['is_technician'], n: 2 },
    { specialty: 'other', flags: ['is_locksmith'], n: 1 },
    { specialty: 'other', flags: ['is_landscape_designer'], n: 1 },
    { specialty: 'other', flags: ['is_worker'], n: 2 },
    { specialty: 'other', flags: ['is_security_service'], n: 0, firm: [['Φύλαξ Ασφάλεια Α.Ε.', 'Fylax Security', 'Εταιρεία φύλαξης']] },
    { specialty: 'other', flags: ['is_energy_supply_company'], n: 0, firm: [['Ήλιος Ενέργεια Α.Ε.', 'Ilios Energy', 'Πάροχος ενέργειας']] },
    { specialty: 'other', flags: ['is_electrical_store'], n: 0, firm: [['Ηλεκτρολογικό Υλικό Καλαμαριάς', 'Kalamaria Electrical Supplies', 'Ηλεκτρολογικό κατάστημα']] },
    { specialty: 'other', flags: ['is_it', 'is_web_designer'], n: 0, firm: [['Pixel Web Studio', 'Pixel Web Studio', 'Κατασκευή ιστοσελίδων']] },
  ];
  // Notes in the masculine or feminine form of the trade, as the person is.
  const specialistNotes = (specialty: Specialty, female: boolean): string[] =>
    ({
      lawyer: ['Δικηγόρος, ακίνητα και κληρονομικά· έλεγχος τίτλων σε 10 ημέρες.', 'Δικηγόρος Θεσσαλονίκης· αναλαμβάνει πληρεξούσια για αγοραστές από το εξωτερικό.'],
      notary: ['Συμβολαιογράφος Θεσσαλονίκης· ραντεβού συνήθως εντός της εβδομάδας.', 'Συμβολαιογράφος· μιλά αγγλικά.'],
      engineer: ['Πολιτικός μηχανικός: ΠΕΑ, ηλεκτρονική ταυτότητα κτιρίου, τακτοποιήσεις αυθαιρέτων.', 'Πολιτικός μηχανικός· τοπογραφικά και άδειες μικρής κλίμακας.'],
      electrician: ['Ηλεκτρολόγος· έκδοση υπεύθυνης δήλωσης εγκαταστάτη (ΥΔΕ).', 'Ηλεκτρολόγος, διαθέσιμος και το Σάββατο.'],
      plumber: ['Υδραυλικός· επείγοντα περιστατικά και τα απογεύματα.', 'Υδραυλικός και θερμοϋδραυλικός (λέβητες φυσικού αερίου).'],
      translator: [
        'Μεταφράσεις εγγράφων ρωσικών – ελληνικών, επικυρώσεις.',
        female ? 'Μεταφράστρια αγγλικών και γερμανικών· παρίσταται στις υπογραφές.' : 'Μεταφραστής αγγλικών και γερμανικών· παρίσταται στις υπογραφές.',
      ],
      accountant: [
        female ? 'Λογίστρια: φόρος μεταβίβασης, Ε9, ΕΝΦΙΑ, έκδοση ΑΦΜ για αλλοδαπούς.' : 'Λογιστής: φόρος μεταβίβασης, Ε9, ΕΝΦΙΑ, έκδοση ΑΦΜ για αλλοδαπούς.',
        female ? 'Λογίστρια· δηλώσεις μισθωμάτων και βραχυχρόνιων μισθώσεων.' : 'Λογιστής· δηλώσεις μισθωμάτων και βραχυχρόνιων μισθώσεων.',
      ],
      cleaner: ['Καθαρισμοί πριν από φωτογράφιση και παράδοση ακινήτων.'],
      designer: [female ? 'Διακοσμήτρια εσωτερικών χώρων· home staging πριν από την πώληση.' : 'Διακοσμητής εσωτερικών χώρων· home staging πριν από την πώληση.'],
      technician: ['Τεχνικός κλιματισμού και θέρμανσης.'],
      other: ['Συνεργάτης για μικροεργασίες σε ακίνητα υπό διαχείριση.'],
    })[specialty];
  const trades: Specialty[] = ['electrician', 'plumber', 'technician', 'other'];
  for (const spec of specSpecs) {
    for (let i = 0; i < spec.n; i++) {
      const russian = spec.specialty === 'translator' && i === 0;
      const female = !trades.includes(spec.specialty) && rng.chance(0.45);
      const person = makePerson(rng, russian ? 'ru' : 'gr', female, { afm: 1, resident: true });
      const flags = Object.fromEntries(spec.flags.map((f) => [f, true]));
      if (spec.specialty === 'lawyer' && rng.chance(0.4)) flags.is_attorney = true;
      if (spec.specialty === 'accountant' && rng.chance(0.5)) flags.is_economist = true;
      if (spec.specialty === 'electrician' && rng.chance(0.3)) flags.is_technician = true;
      add({
        nat: russian ? 'ru' : 'gr',
        lang: 'el',
        specialty: spec.specialty,
        created: createdDaysAgo(30, 720),
        row: { ...person, ...flags, is_professional: true, is_company: false, is_individual: true, notes: rng.pick(specialistNotes(spec.specialty, female)), language: russian ? 'ru' : 'el' },
      });
    }
    for (const [name, nameEng, type] of spec.firm ?? []) {
      add({
        nat: 'gr',
        lang: 'el',
        specialty: spec.specialty,
        created: createdDaysAgo(30, 720),
        row: { ...company(rng, name, type, { name_eng: nameEng }), ...Object.fromEntries(spec.flags.map((f) => [f, true])), is_professional: true, notes: rng.pick(specialistNotes(spec.specialty, false)) },
      });
    }
  }

  // Partners: other agencies (who refer buyers) and tourism businesses (holiday lets in Chalkidiki).
  const partnerSpecs: [string, string, string, 'realEstate' | 'tourism', Row][] = [
    ['Μακεδονική Κτηματική Ε.Π.Ε.', 'Makedoniki Ktimatiki Ltd', 'Μεσιτικό γραφείο', 'realEstate', {}],
    ['Άξιον Ακίνητα', 'Axion Real Estate', 'Μεσιτικό γραφείο', 'realEstate', {}],
    ['Ακίνητα Πυλαίας', 'Pylaia Properties', 'Μεσιτικό γραφείο', 'realEstate', {}],
    ['Chalkidiki Properties', 'Chalkidiki Properties', 'Μεσιτικό γραφείο', 'realEstate', { city: 'Νέα Μουδανιά, Χαλκιδική', postcode: '63200' }],
    ['Kassandra Homes', 'Kassandra Homes', 'Μεσιτικό γραφείο', 'realEstate', { city: 'Κασσάνδρεια, Χαλκιδική', postcode: '63077' }],
    ['Имоти София ЕООД', 'Imoti Sofia EOOD', 'Μεσιτικό γραφείο', 'realEstate', { country: 'Βουλγαρία', language: 'bg', city: 'София', postcode: '1000', address: 'бул. Витоша 48', phones: ['+359 2 981 2345'], emails: ['office@imoti-sofia.bg'] }],
    ['Зарубежная недвижимость ООО', 'Zarubezhnaya Nedvizhimost LLC', 'Μεσιτικό γραφείο', 'realEstate', { country: 'Ρωσία', language: 'ru', city: 'Москва', postcode: '123112', address: 'Пресненская наб., 12', phones: ['+7 495 123-45-67'], emails: ['greece@zn-realty.ru'] }],
    ['Aegean Home Finders Ltd', 'Aegean Home Finders Ltd', 'Σύμβουλος αγοραστών', 'realEstate', { country: 'Ηνωμένο Βασίλειο', language: 'en', city: 'London', postcode: 'W1K 3JZ', address: '22 Mount Street', phones: ['+44 20 7946 0123'], emails: ['hello@aegeanhomefinders.co.uk'] }],
    ['Immobilien Nordgriechenland GmbH', 'Immobilien Nordgriechenland GmbH', 'Μεσιτικό γραφείο', 'realEstate', { country: 'Γερμανία', language: 'de', city: 'Stuttgart', postcode: '70173', address: 'Königstraße 27', phones: ['+49 711 2345678'], emails: ['info@immo-nordgriechenland.de'] }],
    ['Kassandra Holidays', 'Kassandra Holidays', 'Ταξιδιωτικό γραφείο', 'tourism', { city: 'Κασσάνδρεια, Χαλκιδική', postcode: '63077' }],
    ['Ξενοδοχείο Ακτή Πευκοχωρίου', 'Akti Pefkochori Hotel', 'Ξενοδοχείο', 'tourism', { city: 'Πευκοχώρι, Χαλκιδική', postcode: '63085' }],
    ['Sithonia Blue Villas', 'Sithonia Blue Villas', 'Ενοικιάσεις εξοχικών', 'tourism', { city: 'Νικήτη, Χαλκιδική', postcode: '63088' }],
    ['Halkidiki Transfers', 'Halkidiki Transfers', 'Μεταφορές', 'tourism', {}],
    ['Thessaloniki City Tours', 'Thessaloniki City Tours', 'Τουριστικός οργανωτής', 'tourism', {}],
    ['Эллада Тур', 'Ellada Tour', 'Τουριστικός οργανωτής', 'tourism', { country: 'Ρωσία', language: 'ru', city: 'Санкт-Петербург', postcode: '191186', phones: ['+7 812 765-43-21'], emails: ['info@ellada-tour.ru'] }],
    ['Ouranoupoli Boat Trips', 'Ouranoupoli Boat Trips', 'Cruises', 'tourism', { city: 'Ουρανούπολη, Χαλκιδική', postcode: '63075' }],
    ['Porto Koufo Yachting', 'Porto Koufo Yachting', 'Yacht charter', 'tourism', { city: 'Σάρτη, Χαλκιδική', postcode: '63072' }],
  ];
  for (const [name, nameEng, type, kind, extra] of partnerSpecs) {
    const both = name === 'Chalkidiki Properties';
    add({
      nat: 'gr',
      lang: 'el',
      partner: kind,
      created: createdDaysAgo(20, 700),
      row: {
        ...company(rng, name, type, { name_eng: nameEng, ...extra }),
        is_partner_real_estate: kind === 'realEstate',
        is_partner_tourism: kind === 'tourism' || both,
        is_real_estate_agency_or_broker: kind === 'realEstate',
        number_of_sold_objects: kind === 'realEstate' ? rng.int(0, 6) : 0,
        notes: kind === 'realEstate' ? 'Συνεργασία με επιμερισμό αμοιβής 50/50.' : 'Συνεργασία για ενοικιάσεις διακοπών στη Χαλκιδική.',
      },
    });
  }
  for (let i = 0; i < 3; i++) {
    const female = rng.chance(0.5);
    add({
      nat: 'gr',
      lang: 'el',
      partner: 'realEstate',
      created: createdDaysAgo(20, 700),
      row: {
        ...makePerson(rng, 'gr', female, { afm: 1, resident: true }),
        is_partner_real_estate: true, is_real_estate_agency_or_broker: true, is_company: false, is_individual: true,
        notes: `${female ? 'Μεσίτρια (ελεύθερη επαγγελματίας)' : 'Μεσίτης (ελεύθερος επαγγελματίας)'}· συνεργαζόμαστε σε ακίνητα της Καλαμαριάς.`,
      },
    });
  }

  const sourceFor = (nat: Nat) =>
    nat === 'ru'
      ? rng.weighted([[cian, 5], [spitogatos, 1], [website, 2], [referral, 3], [instagram, 1]] as const)
      : nat === 'en'
        ? rng.weighted([[rightmove, 5], [website, 2], [referral, 2]] as const)
        : nat === 'bg'
          ? rng.weighted([[imot, 5], [facebook, 2], [referral, 1]] as const)
          : nat === 'de'
            ? rng.weighted([[website, 3], [spitogatos, 2], [referral, 2]] as const)
            : rng.weighted([[spitogatos, 30], [xe, 20], [facebook, 10], [instagram, 4], [website, 12], [referral, 10], [walkIn, 6], [signboard, 5], [googleAds, 3]] as const);
  const responsibleFor = (nat: Nat, area: Ctx['area']) =>
    nat === 'ru' || nat === 'bg' ? (rng.chance(0.8) ? russianDesk : rng.pick(sales)) : ['Κασσάνδρα', 'Σιθωνία', 'Περαία', 'Νέα Μηχανιώνα', 'Νέοι Επιβάτες'].includes(area[0]) && rng.chance(0.7) ? branchAgent : rng.pick(sales);

  // Owners (sellers and landlords).
  for (let i = 0; i < 125; i++) {
    const nat = rng.weighted([['gr', 86], ['ru', 6], ['de', 4], ['en', 2], ['bg', 2]] as const);
    const c = ctx();
    const forRent = rng.chance(0.3);
    const created = createdDaysAgo(0, 700);
    const isFirm = nat === 'gr' && rng.chance(0.05);
    const firm = rng.pick(GREEK_SURNAMES);
    const form = rng.pick([['& ΣΙΑ Ο.Ε.', '& Sia OE'], ['Α.Ε.', 'SA'], ['Ι.Κ.Ε.', 'IKE']] as const);
    const row = isFirm
      ? company(rng, `${firm[0]} ${form[0]}`, 'Property owner company', { name_eng: `${firm[2]} ${form[1]}` })
      : makePerson(rng, nat, rng.chance(0.45), { resident: nat !== 'gr' && rng.chance(0.5), afm: 0.9 });
    const lang = nat === 'gr' ? 'el' : 'en';
    add({ nat, lang, created, owner: true, forRent, ctx: c, responsible: responsibleFor(nat, c.area), row: { ...row, is_owner: true, is_owner_date: created, notes: ownerNote(c, forRent, 'el') } });
  }

  // Clients (buyers, tenants, holiday guests), a few of them owners too.
  for (let i = 0; i < 185; i++) {
    const nat = rng.weighted([['gr', 56], ['ru', 20], ['bg', 9], ['en', 7], ['de', 8]] as const);
    const c = ctx();
    const service = rng.weighted([[1, 55], [2, 20], [3, 10], [4, 8], [5, 7]] as const);
    const lang = nat === 'gr' ? 'el' : 'en';
    const created = createdDaysAgo(0, 700);
    let min: number | null = null;
    let max: number | null = null;
    if (service === 1) {
      max = nat === 'ru' ? money5k(rng, 150000, 900000) : money5k(rng, 70000, 450000);
      min = rng.chance(0.75) ? Math.round((max * rng.int(55, 85)) / 100 / 5000) * 5000 : null;
      c.price = max;
    } else if (service === 2) {
      max = rng.int(7, 30) * 50;
      min = rng.chance(0.5) ? max - rng.int(2, 6) * 50 : null;
      c.price = max;
    } else if (service === 3) {
      max = rng.int(10, 50) * 50;
      c.price = max;
    }
    const alsoOwner = nat === 'gr' && rng.chance(0.08);
    const person = makePerson(rng, nat, rng.chance(0.5), { resident: nat !== 'gr' && rng.chance(0.3), afm: nat === 'gr' ? 0.5 : 0.35 });
    add({
      nat, lang, created, client: true, owner: alsoOwner, ctx: c, responsible: responsibleFor(nat, c.area),
      row: {
        ...person,
        is_client: true, is_client_date: created,
        ...(alsoOwner ? { is_owner: true, is_owner_date: created } : {}),
        service, source_id: sourceFor(nat),
        purchase_budget_range_min: min, purchase_budget_range_max: max,
        notes: clientNote(c, service, 'el', nat === 'ru'),
      },
    });
  }

  // Activities: calls, meetings, viewings and notes on each account; to-dos in the coming days.
  const activities: DemoActivity[] = [];
  const owners = accounts.map((a, i) => (a.owner ? i : -1)).filter((i) => i >= 0);
  const clients = accounts.map((a, i) => (a.client ? i : -1)).filter((i) => i >= 0);
  const nowMs = clock.now.getTime();
  accounts.forEach((a, index) => {
    if (a.row.is_employe || a.row.is_source) return;
    const n = a.client ? rng.int(1, 6) : a.owner ? rng.int(1, 5) : rng.int(0, 2);
    const ageDays = Math.max(0, Math.floor((nowMs - a.created.getTime()) / 86400000));
    for (let k = 0; k < n; k++) {
      const c = a.ctx ? { ...a.ctx, rng } : ctx();
      const todo = rng.chance(0.16);
      const text = a.client
        ? clientActivity(c, 'el', todo)
        : a.owner
          ? ownerActivity(c, 'el', todo)
          : a.specialty
            ? specialistActivity(c, a.specialty, todo)
            : partnerActivity(c, a.partner === 'tourism', todo);
      const assignedTo = a.responsible !== undefined && rng.chance(0.8) ? a.responsible : rng.pick(sales);
      const links = [index];
      if (text.category === 3) {
        const other = a.client ? rng.pick(owners) : a.owner ? rng.pick(clients) : undefined;
        if (other !== undefined && other !== index) links.push(other);
      }
      if (todo) {
        // Most to-dos are planned for the coming days; a few are overdue.
        const overdue = rng.chance(0.2);
        const date = clock.at(overdue ? -rng.int(1, 6) : rng.int(0, 10), rng.int(9, 19), rng.pick([0, 15, 30, 45]));
        const created = clock.past(-rng.int(overdue ? 7 : 0, overdue ? 14 : 6), rng.int(9, 18), rng.pick([0, 20, 40]));
        activities.push({ text, done: false, date, doneDate: null, created, assignedTo, links });
        continue;
      }
      const day = -rng.int(0, Math.min(ageDays, 720));
      const created = clock.past(day, rng.int(9, 19), rng.pick([0, 5, 10, 20, 30, 40, 50]));
      if (text.category === 0 && rng.chance(0.7)) {
        activities.push({ text, done: null, date: null, doneDate: null, created, assignedTo: null, links });
        continue;
      }
      // Planned within a few days of being noted, completed soon after; nothing later than now.
      const planned = created.getTime() + rng.int(0, 3) * 86400000 + rng.int(0, 6) * 3600000;
      const date = new Date(planned < nowMs - 3600000 ? planned : created.getTime() + (nowMs - created.getTime()) / 3);
      const doneDate = new Date(Math.min(nowMs - 60000, date.getTime() + rng.int(10, 90) * 60000));
      activities.push({ text, done: true, date, doneDate, created, assignedTo, links });
    }
  });

  // Assignments: the employees who look after each owner and client (sometimes two).
  const assignments: { account: number; employee: number; created: Date }[] = [];
  accounts.forEach((a, index) => {
    if (a.responsible === undefined) return;
    if (rng.chance(0.12)) return;
    assignments.push({ account: index, employee: a.responsible, created: a.created });
    if (rng.chance(0.18)) {
      const second = rng.pick(sales);
      if (second !== a.responsible) assignments.push({ account: index, employee: second, created: new Date(Math.min(nowMs, a.created.getTime() + 86400000 * rng.int(1, 30))) });
    }
  });
  for (const p of accounts.filter((a) => a.partner || a.specialty)) {
    if (rng.chance(0.3)) assignments.push({ account: accounts.indexOf(p), employee: rng.pick([employees[0]!, ...sales]), created: p.created });
  }

  // Some records were edited after they were created.
  for (const a of accounts) {
    const ageDays = Math.floor((nowMs - a.created.getTime()) / 86400000);
    const edited = rng.chance(0.55) && ageDays > 1 ? clock.past(-rng.int(0, ageDays - 1), rng.int(9, 19), rng.int(0, 59)) : a.created;
    a.row.modified_on = edited.getTime() > a.created.getTime() ? edited : a.created;
  }
  return { accounts, activities, assignments };
}

async function reserveIds(tx: Tx, table: string, n: number): Promise<number[]> {
  if (!n) return [];
  const res = await tx.execute(sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${n})`);
  return (res.rows as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
}

function ordered<T extends { created: Date }>(items: T[]): number[] {
  return items.map((_, i) => i).sort((a, b) => items[a]!.created.getTime() - items[b]!.created.getTime());
}

/** Loads the demo agency's accounts, activities and assignments (one statement per table). */
export async function seedDemoAccounts(tx: Tx, opts: { timeZone: string; now?: Date }) {
  const clock = createClock(opts.now ?? new Date(), opts.timeZone);
  const { accounts, activities, assignments } = buildDemoAgency(clock);
  const admin = (await tx.execute(sql`select id from users where 'admin' = any(roles) order by id limit 1`)).rows[0] as { id: number } | undefined;
  const by = admin?.id ?? null;

  // Ids follow creation dates, as they would have in real use.
  const accountIds = await reserveIds(tx, 'accounts', accounts.length);
  const accountId: number[] = [];
  ordered(accounts).forEach((index, k) => (accountId[index] = accountIds[k]!));
  const accountRows = accounts.map((a, index) => {
    const row: Row = { ...NOT_NULL_DEFAULTS, ...a.row, id: accountId[index], created_on: a.created, created_by: by, modified_by: by };
    if (typeof row.source_id === 'number') row.source_id = accountId[row.source_id];
    return Object.fromEntries(ACCOUNT_COLUMNS.filter((c) => row[c] !== undefined && row[c] !== null).map((c) => [c, row[c] instanceof Date ? (row[c] as Date).toISOString() : row[c]]));
  });
  const cols = sql.raw(ACCOUNT_COLUMNS.join(', '));
  const defaultsFor = sql.raw(
    ACCOUNT_COLUMNS.map((c) => (c.startsWith('is_') && c !== 'is_company' && c !== 'is_individual' && c !== 'is_client_date' && c !== 'is_owner_date' ? `coalesce(r.${c}, false)` : `r.${c}`)).join(', '),
  );
  await tx.execute(sql`insert into accounts (${cols}) select ${defaultsFor} from jsonb_populate_recordset(null::accounts, ${JSON.stringify(accountRows)}::jsonb) r`);
  // The public site's enquiries come from the agency's own website (a source account).
  await tx.execute(sql`insert into site_settings (id, enquiry_source_id)
    select 1, id from accounts where is_source and display_name = ${`Ιστοσελίδα ${AGENCY_DOMAIN}`} order by id limit 1
    on conflict (id) do update set enquiry_source_id = excluded.enquiry_source_id`);
  // The demo agency's own face (issue 45): its names, contacts, numbers and fees, so a demo start
  // shows them on every sheet and page and asks for no set-up.
  await tx.execute(sql`update site_settings set name = 'Thermaikos Homes', name_el = 'Ακίνητα Θερμαϊκός', phone = '+30 2310 254 870',
    email = ${`info@${AGENCY_DOMAIN}`}, address = 'Τσιμισκή 45, 546 23 Θεσσαλονίκη', website = ${`https://${AGENCY_DOMAIN}`},
    licence = '158204306000', tax_number = '094712341', tax_office = 'Δ΄ Θεσσαλονίκης', sale_fee_percent = 2, rent_fee_months = 1,
    setup_done_on = now() where id = 1 and setup_done_on is null`);

  const activityIds = await reserveIds(tx, 'activities', activities.length);
  const activityId: number[] = [];
  ordered(activities).forEach((index, k) => (activityId[index] = activityIds[k]!));
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const activityRows = activities.map((a, i) => ({
    id: activityId[i],
    description: a.text.text,
    done: a.done,
    category: a.text.category,
    date: iso(a.date),
    done_date: iso(a.doneDate),
    assigned_to: a.assignedTo === null ? null : accountId[a.assignedTo],
    created_on: iso(a.created),
    created_by: by,
    modified_on: iso(a.doneDate && a.doneDate > a.created ? a.doneDate : a.created),
    modified_by: by,
  }));
  await tx.execute(sql`
    insert into activities (id, description, done, category, date, done_date, assigned_to, created_on, created_by, modified_on, modified_by)
    select id, description, done, category, date, done_date, assigned_to, created_on, created_by, modified_on, modified_by
    from jsonb_populate_recordset(null::activities, ${JSON.stringify(activityRows)}::jsonb)`);
  const linkRows = activities.flatMap((a, i) => a.links.map((account, position) => ({ activity_id: activityId[i], entity: 2, entity_id: accountId[account], position })));
  await tx.execute(sql`
    insert into activity_links (activity_id, entity, entity_id, position)
    select activity_id, entity, entity_id, position from jsonb_populate_recordset(null::activity_links, ${JSON.stringify(linkRows)}::jsonb)`);

  const assignmentRows = assignments.map((a) => ({ parent: 1, parent_id: accountId[a.account], account_id: accountId[a.employee], created_on: a.created.toISOString(), created_by: by }));
  await tx.execute(sql`
    insert into assignments (parent, parent_id, account_id, created_on, created_by)
    select parent, parent_id, account_id, created_on, created_by from jsonb_populate_recordset(null::assignments, ${JSON.stringify(assignmentRows)}::jsonb)
    on conflict do nothing`);
  return { accounts: accountRows.length, activities: activityRows.length, links: linkRows.length, assignments: assignmentRows.length };
}
