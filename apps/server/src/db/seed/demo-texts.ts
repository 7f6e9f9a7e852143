import type { Rng } from './demo-time.ts';

/**
 * What the demo agency's staff write: account notes and activity descriptions. A text with one value
 * (a note, a to-do) is written in the office's working language, Greek, for Greek clients and
 * foreign buyers alike, as an agency in Thessaloniki writes them; every screen shows it as written
 * (the languages crawl, e2e/specs/languages-crawl.spec.ts, counts it as the agency's data). The
 * English texts below are the ones an agent would write for a foreign buyer's own eyes.
 */

/** [nominative, "in ..." phrase, English] */
export const AREAS = [
  ['Καλαμαριά', 'στην Καλαμαριά', 'Kalamaria'],
  ['Πυλαία', 'στην Πυλαία', 'Pylaia'],
  ['Θέρμη', 'στη Θέρμη', 'Thermi'],
  ['Περαία', 'στην Περαία', 'Peraia'],
  ['Τούμπα', 'στην Τούμπα', 'Toumba'],
  ['Χαριλάου', 'στη Χαριλάου', 'Charilaou'],
  ['κέντρο', 'στο κέντρο', 'the city centre'],
  ['Άνω Πόλη', 'στην Άνω Πόλη', 'Ano Poli'],
  ['Αρετσού', 'στην Αρετσού', 'Aretsou'],
  ['Πανόραμα', 'στο Πανόραμα', 'Panorama'],
  ['Νέοι Επιβάτες', 'στους Νέους Επιβάτες', 'Neoi Epivates'],
  ['Νέα Κρήνη', 'στη Νέα Κρήνη', 'Nea Krini'],
  ['Κασσάνδρα', 'στην Κασσάνδρα', 'Kassandra, Chalkidiki'],
  ['Σιθωνία', 'στη Σιθωνία', 'Sithonia, Chalkidiki'],
  ['Νέα Μηχανιώνα', 'στη Νέα Μηχανιώνα', 'Nea Michaniona'],
] as const;

/** [bare, with the accusative article, English] */
export const PROPERTIES = [
  ['διαμέρισμα 2 υπνοδωματίων', 'το διαμέρισμα 2 υπνοδωματίων', 'two-bedroom flat'],
  ['διαμέρισμα 3 υπνοδωματίων', 'το διαμέρισμα 3 υπνοδωματίων', 'three-bedroom flat'],
  ['γκαρσονιέρα', 'τη γκαρσονιέρα', 'studio flat'],
  ['μεζονέτα', 'τη μεζονέτα', 'maisonette'],
  ['μονοκατοικία', 'τη μονοκατοικία', 'detached house'],
  ['ρετιρέ', 'το ρετιρέ', 'penthouse'],
  ['οικόπεδο', 'το οικόπεδο', 'building plot'],
  ['κατάστημα', 'το κατάστημα', 'shop'],
] as const;

export type Area = (typeof AREAS)[number];
export type Property = (typeof PROPERTIES)[number];

/** 250000 → "250.000 €" (Greek) or "€250,000" (English). */
export function money(amount: number, lang: 'el' | 'en'): string {
  const digits = String(Math.round(amount)).replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'el' ? '.' : ',');
  return lang === 'el' ? `${digits} €` : `€${digits}`;
}

export type Ctx = { rng: Rng; area: Area; prop: Property; price: number; year: number };

const el = (c: Ctx) => ({ loc: c.area[1], prop: c.prop[0], propArt: c.prop[1], price: money(c.price, 'el') });
const en = (c: Ctx) => ({ loc: c.area[2], prop: c.prop[2], price: money(c.price, 'en') });

export function ownerNote(c: Ctx, forRent: boolean, lang: 'el' | 'en'): string {
  const { rng } = c;
  const sqm = rng.int(35, 180);
  const floor = c.prop[0] === 'κατάστημα' ? 0 : rng.int(0, 7);
  const built = rng.int(1968, 2022);
  if (lang === 'en') {
    const e = en(c);
    if (c.prop[0] === 'οικόπεδο') return `Building plot of ${rng.int(3, 12) * 50} m² in ${e.loc}. Asking ${e.price}. Lives abroad; prefers e-mail.`;
    const extra = rng.pick([
      'Keys are with a neighbour on the ground floor.',
      'Lives abroad; prefers e-mail and a monthly report of viewings.',
      'Energy certificate (class C) and electronic building ID ready.',
      'Open to offers; wants the sale completed before the summer.',
    ]);
    return forRent
      ? `Property to let: ${e.prop}, ${sqm} m², in ${e.loc}, ${floor === 0 ? 'ground floor' : `floor ${floor}`}, built ${built}. Asking ${money(Math.round(c.price / 500 / 10) * 10, 'en')} per month. ${extra}`
      : `Property for sale: ${e.prop}, ${sqm} m², in ${e.loc}, ${floor === 0 ? 'ground floor' : `floor ${floor}`}, built ${built}. Asking ${e.price}. ${extra}`;
  }
  const g = el(c);
  if (c.prop[0] === 'οικόπεδο')
    return `Οικόπεδο ${rng.int(3, 12) * 50} τ.μ. ${g.loc}, άρτιο και οικοδομήσιμο. Ζητούμενη τιμή ${g.price}. Υπάρχει τοπογραφικό του ${rng.int(2015, 2024)}.`;
  const extra = rng.pick([
    'Τα κλειδιά βρίσκονται στο γραφείο.',
    'Αποκλειστική εντολή ανάθεσης για 6 μήνες.',
    'Διαθέτει ΠΕΑ κατηγορίας Β και ηλεκτρονική ταυτότητα κτιρίου.',
    'Χρειάζεται ανακαίνιση μπάνιου και κουζίνας· η τιμή είναι συζητήσιμη.',
    'Επισκέψεις μόνο απογεύματα, κατόπιν συνεννόησης με τον ενοικιαστή.',
    'Θέση στάθμευσης πυλωτής και αποθήκη στο υπόγειο.',
    'Εκκρεμεί η τακτοποίηση ημιυπαίθριου· ανατέθηκε σε μηχανικό.',
  ]);
  return forRent
    ? `Ακίνητο προς ενοικίαση: ${g.prop} ${sqm} τ.μ. ${g.loc}, ${floor === 0 ? 'ισόγειο' : `${floor}ος όροφος`}, κατασκευή ${built}. Μίσθωμα ${money(Math.round(c.price / 500 / 10) * 10, 'el')} τον μήνα. ${extra}`
    : `Ακίνητο προς πώληση: ${g.prop} ${sqm} τ.μ. ${g.loc}, ${floor === 0 ? 'ισόγειο' : `${floor}ος όροφος`}, κατασκευή ${built}. Ζητούμενη τιμή ${g.price}. ${extra}`;
}

/** service: 1 purchase, 2 rent, 3 short rent, 4 sell, 5 rent out */
export function clientNote(c: Ctx, service: number, lang: 'el' | 'en', russian: boolean): string {
  const { rng } = c;
  if (lang === 'en') {
    const e = en(c);
    const extra = russian
      ? rng.pick([
          'Russian-speaking; prefers Telegram or WhatsApp, replies in the evening (Moscow time).',
          'Asks about the Golden Visa: at least €800,000 for one property in Thessaloniki, €400,000 in Chalkidiki.',
          'Needs a Greek tax number (AFM) and a bank account; we recommended our lawyer.',
          'Plans to spend the summers here and let the flat the rest of the year.',
        ])
      : rng.pick([
          'Cash buyer, no mortgage needed.',
          'Visiting Thessaloniki next month; wants to see 4–5 properties in two days.',
          'Retiring to Greece; wants a lift and no stairs.',
          'Works remotely; needs a quiet room for an office and good internet.',
        ]);
    switch (service) {
      case 2:
        return `Looking to rent a ${e.prop} in ${e.loc}, up to ${money(c.price, 'en')} per month, from ${rng.pick(['September', 'October', 'January', 'as soon as possible'])}. ${extra}`;
      case 3:
        return `Holiday let in ${rng.pick(['Kassandra', 'Sithonia', 'Nea Kallikrateia'])} for ${rng.pick(['two weeks in July', 'August', 'late June'])}, ${rng.int(2, 6)} people, walking distance to the beach. ${extra}`;
      case 4:
        return `Wants to sell a ${e.prop} in ${e.loc}; asked for a valuation.`;
      case 5:
        return `Wants to let a ${e.prop} in ${e.loc} and asks whether we manage rentals.`;
      default:
        return `Looking for a ${e.prop} in ${e.loc}, budget up to ${e.price}. ${extra}`;
    }
  }
  const g = el(c);
  const extra = rng.pick([
    'Απαραίτητο ασανσέρ και θέση στάθμευσης.',
    'Δεν θέλει ισόγειο ούτε ημιώροφο.',
    'Έχει προέγκριση στεγαστικού δανείου.',
    'Προτιμά επικοινωνία απογεύματα, μετά τις 17:00.',
    'Θέλει θέα στη θάλασσα, έστω και πλάγια.',
    'Κοντά σε σχολείο· οικογένεια με δύο παιδιά.',
    'Πρώτα θέλει να πουλήσει το σπίτι που έχει τώρα στην Τούμπα.',
  ]);
  switch (service) {
    case 2:
      return `Ενοικίαση: ${g.prop} ${g.loc}, έως ${money(c.price, 'el')} τον μήνα, ${rng.pick(['από τον Σεπτέμβριο', 'άμεσα', 'από τον Οκτώβριο', 'για φοιτητή, από τον Σεπτέμβριο'])}. ${extra}`;
    case 3:
      return `Βραχυχρόνια μίσθωση ${rng.pick(['στην Κασσάνδρα', 'στη Σιθωνία', 'στη Νέα Καλλικράτεια'])} ${rng.pick(['για τον Ιούλιο', 'για 10 ημέρες τον Αύγουστο', 'για τον Δεκαπενταύγουστο'])}, ${rng.int(2, 6)} άτομα, κοντά στη θάλασσα.`;
    case 4:
      return `Θέλει να πουλήσει ${g.propArt} ${g.loc}· ζήτησε εκτίμηση τιμής.`;
    case 5:
      return `Θέλει να νοικιάσει ${g.propArt} ${g.loc}· ενδιαφέρεται και για διαχείριση του ακινήτου.`;
    default:
      return `Αναζητά ${g.prop} ${g.loc}, με προϋπολογισμό έως ${g.price}. ${extra}`;
  }
}

export type ActivityText = { category: 0 | 1 | 2 | 3; text: string };

/** category: 0 note, 1 call, 2 meeting, 3 viewing */
export function ownerActivity(c: Ctx, lang: 'el' | 'en', todo: boolean): ActivityText {
  const { rng } = c;
  if (lang === 'en') {
    const e = en(c);
    if (todo)
      return rng.pick<ActivityText>([
        { category: 1, text: `Call the owner with this month's viewing report for the ${e.prop} in ${e.loc}.` },
        { category: 2, text: `Photo shoot and measurements at the ${e.prop} in ${e.loc}.` },
        { category: 0, text: 'Ask the owner for the power of attorney for the notary.' },
      ]);
    return rng.pick<ActivityText>([
      { category: 1, text: `Call: agrees to lower the price to ${e.price}.` },
      { category: 1, text: 'Call: asked how many viewings we had this month; sent the report by e-mail.' },
      { category: 3, text: `Viewing of the ${e.prop} in ${e.loc} with a buyer; good feedback on the layout.` },
      { category: 0, text: 'The owner lives abroad and will sign through a power of attorney given to a lawyer in Thessaloniki.' },
    ]);
  }
  const g = el(c);
  if (todo)
    return rng.pick<ActivityText>([
      { category: 1, text: `Να σταλεί στον ιδιοκτήτη η αναφορά υποδείξεων του μήνα για ${g.propArt} ${g.loc}.` },
      { category: 2, text: `Ραντεβού για φωτογράφιση και μέτρηση ${g.loc}.` },
      { category: 0, text: 'Υπενθύμιση: λήγει η εντολή ανάθεσης — να ανανεωθεί.' },
      { category: 0, text: 'Να ζητηθεί βεβαίωση ΕΝΦΙΑ και πιστοποιητικό ΤΑΠ για τη μεταβίβαση.' },
      { category: 3, text: `Υπόδειξη σε νέο ενδιαφερόμενο: ${g.prop} ${g.loc}.` },
    ]);
  return rng.pick<ActivityText>([
    { category: 1, text: `Κλήση: συμφωνεί να μειωθεί η τιμή στα ${g.price}.` },
    { category: 1, text: 'Κλήση: ενημερώθηκε για τις υποδείξεις της εβδομάδας και τα σχόλια των ενδιαφερομένων.' },
    { category: 1, text: 'Κλήση για ανανέωση της εντολής ανάθεσης (λήγει σε έναν μήνα).' },
    { category: 2, text: `Συνάντηση στο ακίνητο ${g.loc}: φωτογράφιση, μέτρηση και υπογραφή εντολής ανάθεσης.` },
    { category: 2, text: 'Συνάντηση στο γραφείο: παραλαβή τίτλων ιδιοκτησίας, τοπογραφικού και ΠΕΑ.' },
    { category: 3, text: `Υπόδειξη: ${g.prop} ${g.loc} σε ζευγάρι αγοραστών. Θετικά σχόλια για τη διαρρύθμιση, ζητούν έκπτωση.` },
    { category: 0, text: 'Ο ιδιοκτήτης δέχεται προσφορές· κατώτατη τιμή μόνο για εσωτερική χρήση.' },
    { category: 0, text: 'Εκκρεμεί ηλεκτρονική ταυτότητα κτιρίου — ανατέθηκε σε πολιτικό μηχανικό.' },
  ]);
}

export function clientActivity(c: Ctx, lang: 'el' | 'en', todo: boolean): ActivityText {
  const { rng } = c;
  if (lang === 'en') {
    const e = en(c);
    if (todo)
      return rng.pick<ActivityText>([
        { category: 0, text: `Send the shortlist of properties in ${e.loc} by e-mail.` },
        { category: 3, text: `Viewings for the client's visit: the ${e.prop} in ${e.loc} and two more.` },
        { category: 2, text: 'Appointment with the notary for the final contract.' },
        { category: 0, text: 'Help the client get a Greek tax number (AFM) before the pre-agreement.' },
        { category: 1, text: "Call back with the owner's answer to the offer." },
      ]);
    return rng.pick<ActivityText>([
      { category: 1, text: `Call: looking for a ${e.prop} in ${e.loc}, budget up to ${e.price}. Needs parking.` },
      { category: 1, text: `Video call: walked through the ${e.prop} in ${e.loc}; wants a second viewing in person.` },
      { category: 2, text: 'Meeting at the office: explained the buying process (tax number, bank account, lawyer, notary, transfer tax).' },
      { category: 3, text: `Viewing: ${e.prop} in ${e.loc}. Liked the sea view, finds the price a bit high.` },
      { category: 3, text: `Second viewing of the ${e.prop} in ${e.loc}; asked us to make an offer of ${e.price}.` },
      { category: 0, text: 'Sent three new listings by e-mail; waiting for feedback.' },
    ]);
  }
  const g = el(c);
  if (todo)
    return rng.pick<ActivityText>([
      { category: 0, text: `Να σταλούν νέες προτάσεις ακινήτων ${g.loc}.` },
      { category: 3, text: `Υπόδειξη: ${g.prop} ${g.loc}.` },
      { category: 1, text: 'Να ενημερωθεί για την αντιπροσφορά του ιδιοκτήτη.' },
      { category: 2, text: 'Ραντεβού στο γραφείο για το προσύμφωνο· να σταλεί σχέδιο στον δικηγόρο.' },
      { category: 1, text: 'Επικοινωνία για την προέγκριση του δανείου από την τράπεζα.' },
    ]);
  return rng.pick<ActivityText>([
    { category: 1, text: `Κλήση: αναζητά ${g.prop} ${g.loc}, έως ${g.price}. Θέλει θέση στάθμευσης.` },
    { category: 1, text: 'Κλήση: στείλαμε με email τρεις νέες προτάσεις.' },
    { category: 1, text: `Επέστρεψε την κλήση· ενδιαφέρεται για ${g.propArt} ${g.loc} από την αγγελία.` },
    { category: 2, text: 'Συνάντηση στο γραφείο: συζήτηση για στεγαστικό δάνειο και τα έξοδα μεταβίβασης.' },
    { category: 3, text: `Υπόδειξη: ${g.prop} ${g.loc}. Θετική εντύπωση, βρίσκει όμως την τιμή υψηλή.` },
    { category: 3, text: `Δεύτερη υπόδειξη: ${g.prop} ${g.loc}. Ζήτησε να μεταφέρουμε προσφορά ${g.price}.` },
    { category: 0, text: 'Δεν ενδιαφέρεται για ακίνητα χωρίς ασανσέρ.' },
  ]);
}

export type Specialty = 'lawyer' | 'notary' | 'engineer' | 'electrician' | 'plumber' | 'translator' | 'accountant' | 'cleaner' | 'designer' | 'technician' | 'other';

export function specialistActivity(c: Ctx, specialty: Specialty, todo: boolean): ActivityText {
  const g = el(c);
  const texts: Record<Specialty, ActivityText> = {
    lawyer: c.rng.pick<ActivityText>([
      { category: 1, text: `Έλεγχος τίτλων για ${g.propArt} ${g.loc}· παράδοση σε 10 ημέρες.` },
      { category: 2, text: 'Συνάντηση για το σχέδιο προσυμφώνου με τους αγοραστές.' },
    ]),
    notary: c.rng.pick<ActivityText>([
      { category: 2, text: 'Ραντεβού για υπογραφή συμβολαίου αγοραπωλησίας στο συμβολαιογραφείο.' },
      { category: 1, text: 'Κλήση: ζητά τα πιστοποιητικά ΕΝΦΙΑ, ΤΑΠ και την ηλεκτρονική ταυτότητα κτιρίου πριν από το συμβόλαιο.' },
      { category: 0, text: 'Η αμοιβή του συμβολαιογράφου υπολογίστηκε και στάλθηκε στον αγοραστή.' },
    ]),
    engineer: c.rng.pick<ActivityText>([
      { category: 1, text: `Ανάθεση έκδοσης ΠΕΑ και ηλεκτρονικής ταυτότητας κτιρίου για ${g.propArt} ${g.loc}.` },
      { category: 2, text: `Αυτοψία ${g.loc} για τακτοποίηση ημιυπαίθριου.` },
    ]),
    electrician: { category: 1, text: `Έλεγχος ηλεκτρολογικής εγκατάστασης ${g.loc} πριν από την παράδοση.` },
    plumber: { category: 1, text: `Επισκευή διαρροής στο μπάνιο ${g.loc} (ακίνητο σε διαχείριση).` },
    translator: { category: 0, text: 'Επίσημη μετάφραση πληρεξουσίου από τα ρωσικά για πελάτη μας.' },
    accountant: { category: 1, text: 'Υπολογισμός φόρου μεταβίβασης και ΕΝΦΙΑ για πελάτη από το εξωτερικό.' },
    cleaner: { category: 1, text: `Καθαρισμός ακινήτου ${g.loc} πριν από τη φωτογράφιση.` },
    designer: { category: 2, text: `Συνάντηση για πρόταση ανακαίνισης: ${g.prop} ${g.loc}.` },
    technician: { category: 1, text: `Συντήρηση κλιματιστικών ${g.loc} πριν από τη σεζόν.` },
    other: { category: 1, text: `Ζητήθηκε προσφορά για εργασίες ${g.loc}.` },
  };
  const t = texts[specialty];
  return todo ? { category: t.category, text: `Να επιβεβαιωθεί: ${t.text.charAt(0).toLowerCase()}${t.text.slice(1)}` } : t;
}

export function partnerActivity(c: Ctx, tourism: boolean, todo: boolean): ActivityText {
  const { rng } = c;
  const g = el(c);
  if (tourism)
    return rng.pick<ActivityText>([
      { category: 1, text: 'Προσφορά για μεταφορές πελατών από το αεροδρόμιο «Μακεδονία».' },
      { category: 2, text: `Συμφωνία για προώθηση ενοικιάσεων διακοπών στη Χαλκιδική, σεζόν ${c.year}.` },
      { category: 0, text: todo ? 'Να σταλεί η λίστα με τις διαθέσιμες βίλες για τον Ιούλιο.' : 'Ενδιαφέρονται για αποκλειστική συνεργασία στη Σιθωνία.' },
    ]);
  return rng.pick<ActivityText>([
    { category: 1, text: `Συνεργασία 50/50 για ${g.propArt} ${g.loc}.` },
    { category: 1, text: `Μας σύστησαν αγοραστή για ${g.prop} ${g.loc}.` },
    { category: 2, text: todo ? 'Συνάντηση για ανταλλαγή χαρτοφυλακίου ακινήτων.' : 'Συνάντηση για κοινή προβολή ακινήτων στη Χαλκιδική.' },
  ]);
}
