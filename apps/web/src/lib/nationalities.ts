import type { TCulture } from '@crm/contract/constants';
import { INTL_LOCALE } from './i18n.ts';
import { COUNTRIES_EU, COUNTRIES_FIRST } from './countries.ts';

/**
 * The nationalities an account's nationality field offers: one for each member of the United
 * Nations, the Vatican, Palestine and Taiwan (a territory's people hold its state's nationality).
 * Each line: ISO code | English | Greek. The Greek is what an office writes after «Υπηκοότητα:», the
 * feminine adjective («Ρωσική», «Βρετανική») where Greek has one in use, else the country in the
 * genitive («Μπαγκλαντές», «Αγίας Λουκίας»). Russian forms write the country after «Гражданство:»
 * («Великобритания»), so Russian readers are offered the country's name (Intl.DisplayNames).
 */
const TABLE = `
AD|Andorran|Ανδορρανή
AE|Emirati|Εμιρατινή
AF|Afghan|Αφγανική
AG|Antiguan and Barbudan|Αντίγκουα και Μπαρμπούντα
AL|Albanian|Αλβανική
AM|Armenian|Αρμενική
AO|Angolan|Αγκολική
AR|Argentine|Αργεντινή
AT|Austrian|Αυστριακή
AU|Australian|Αυστραλιανή
AZ|Azerbaijani|Αζερμπαϊτζανική
BA|Bosnian and Herzegovinian|Βοσνίας-Ερζεγοβίνης
BB|Barbadian|Μπαρμπάντος
BD|Bangladeshi|Μπαγκλαντές
BE|Belgian|Βελγική
BF|Burkinabe|Μπουρκίνα Φάσο
BG|Bulgarian|Βουλγαρική
BH|Bahraini|Μπαχρέιν
BI|Burundian|Μπουρούντι
BJ|Beninese|Μπενίν
BN|Bruneian|Μπρουνέι
BO|Bolivian|Βολιβιανή
BR|Brazilian|Βραζιλιανή
BS|Bahamian|Μπαχαμών
BT|Bhutanese|Μπουτάν
BW|Botswanan|Μποτσουάνας
BY|Belarusian|Λευκορωσική
BZ|Belizean|Μπελίζ
CA|Canadian|Καναδική
CD|Congolese (DR Congo)|Λαϊκής Δημοκρατίας του Κονγκό
CF|Central African|Κεντροαφρικανική
CG|Congolese (Congo)|Δημοκρατίας του Κονγκό
CH|Swiss|Ελβετική
CI|Ivorian|Ακτής Ελεφαντοστού
CL|Chilean|Χιλιανή
CM|Cameroonian|Καμερουνέζικη
CN|Chinese|Κινεζική
CO|Colombian|Κολομβιανή
CR|Costa Rican|Κοσταρικανή
CU|Cuban|Κουβανική
CV|Cape Verdean|Πράσινου Ακρωτηρίου
CY|Cypriot|Κυπριακή
CZ|Czech|Τσεχική
DE|German|Γερμανική
DJ|Djiboutian|Τζιμπουτί
DK|Danish|Δανική
DM|Dominican (Dominica)|Ντομίνικας
DO|Dominican (Dominican Republic)|Δομινικανή
DZ|Algerian|Αλγερινή
EC|Ecuadorian|Ισημερινού
EE|Estonian|Εσθονική
EG|Egyptian|Αιγυπτιακή
ER|Eritrean|Ερυθραίας
ES|Spanish|Ισπανική
ET|Ethiopian|Αιθιοπική
FI|Finnish|Φινλανδική
FJ|Fijian|Φίτζι
FM|Micronesian|Μικρονησίας
FR|French|Γαλλική
GA|Gabonese|Γκαμπόν
GB|British|Βρετανική
GD|Grenadian|Γρενάδας
GE|Georgian|Γεωργιανή
GH|Ghanaian|Γκανέζικη
GM|Gambian|Γκάμπιας
GN|Guinean|Γουινέας
GQ|Equatorial Guinean|Ισημερινής Γουινέας
GR|Greek|Ελληνική
GT|Guatemalan|Γουατεμάλας
GW|Bissau-Guinean|Γουινέας-Μπισάου
GY|Guyanese|Γουιάνας
HN|Honduran|Ονδούρας
HR|Croatian|Κροατική
HT|Haitian|Αϊτής
HU|Hungarian|Ουγγρική
ID|Indonesian|Ινδονησιακή
IE|Irish|Ιρλανδική
IL|Israeli|Ισραηλινή
IN|Indian|Ινδική
IQ|Iraqi|Ιρακινή
IR|Iranian|Ιρανική
IS|Icelandic|Ισλανδική
IT|Italian|Ιταλική
JM|Jamaican|Τζαμαϊκανή
JO|Jordanian|Ιορδανική
JP|Japanese|Ιαπωνική
KE|Kenyan|Κενυατική
KG|Kyrgyz|Κιργιζική
KH|Cambodian|Καμποτζιανή
KI|I-Kiribati|Κιριμπάτι
KM|Comorian|Κομορών
KN|Kittitian and Nevisian|Αγίου Χριστόφορου και Νέβις
KP|North Korean|Βορειοκορεατική
KR|South Korean|Νοτιοκορεατική
KW|Kuwaiti|Κουβεϊτιανή
KZ|Kazakh|Καζακική
LA|Lao|Λάος
LB|Lebanese|Λιβανική
LC|Saint Lucian|Αγίας Λουκίας
LI|Liechtensteiner|Λιχτενστάιν
LK|Sri Lankan|Σρι Λάνκα
LR|Liberian|Λιβεριανή
LS|Mosotho|Λεσότο
LT|Lithuanian|Λιθουανική
LU|Luxembourgish|Λουξεμβουργιανή
LV|Latvian|Λετονική
LY|Libyan|Λιβυκή
MA|Moroccan|Μαροκινή
MC|Monegasque|Μονακό
MD|Moldovan|Μολδαβική
ME|Montenegrin|Μαυροβουνιακή
MG|Malagasy|Μαδαγασκάρης
MH|Marshallese|Νήσων Μάρσαλ
MK|North Macedonian|Βόρειας Μακεδονίας
ML|Malian|Μάλι
MM|Burmese|Μιανμάρ
MN|Mongolian|Μογγολική
MR|Mauritanian|Μαυριτανική
MT|Maltese|Μαλτέζικη
MU|Mauritian|Μαυρικίου
MV|Maldivian|Μαλδιβών
MW|Malawian|Μαλάουι
MX|Mexican|Μεξικανική
MY|Malaysian|Μαλαισιανή
MZ|Mozambican|Μοζαμβίκης
NA|Namibian|Ναμίμπιας
NE|Nigerien|Νίγηρα
NG|Nigerian|Νιγηριανή
NI|Nicaraguan|Νικαράγουας
NL|Dutch|Ολλανδική
NO|Norwegian|Νορβηγική
NP|Nepalese|Νεπαλέζικη
NR|Nauruan|Ναουρού
NZ|New Zealander|Νεοζηλανδική
OM|Omani|Ομάν
PA|Panamanian|Παναμαϊκή
PE|Peruvian|Περουβιανή
PG|Papua New Guinean|Παπούας-Νέας Γουινέας
PH|Filipino|Φιλιππινέζικη
PK|Pakistani|Πακιστανική
PL|Polish|Πολωνική
PS|Palestinian|Παλαιστινιακή
PT|Portuguese|Πορτογαλική
PW|Palauan|Παλάου
PY|Paraguayan|Παραγουανή
QA|Qatari|Κατάρ
RO|Romanian|Ρουμανική
RS|Serbian|Σερβική
RU|Russian|Ρωσική
RW|Rwandan|Ρουάντας
SA|Saudi|Σαουδαραβική
SB|Solomon Islander|Νήσων Σολομώντα
SC|Seychellois|Σεϋχελλών
SD|Sudanese|Σουδανική
SE|Swedish|Σουηδική
SG|Singaporean|Σιγκαπούρης
SI|Slovenian|Σλοβενική
SK|Slovak|Σλοβακική
SL|Sierra Leonean|Σιέρα Λεόνε
SM|Sammarinese|Αγίου Μαρίνου
SN|Senegalese|Σενεγαλέζικη
SO|Somali|Σομαλική
SR|Surinamese|Σουρινάμ
SS|South Sudanese|Νότιου Σουδάν
ST|Sao Tomean|Σάο Τομέ και Πρίνσιπε
SV|Salvadoran|Ελ Σαλβαδόρ
SY|Syrian|Συριακή
SZ|Swazi|Εσουατίνι
TD|Chadian|Τσαντ
TG|Togolese|Τόγκο
TH|Thai|Ταϊλανδική
TJ|Tajik|Τατζικική
TL|Timorese|Ανατολικού Τιμόρ
TM|Turkmen|Τουρκμενική
TN|Tunisian|Τυνησιακή
TO|Tongan|Τόνγκα
TR|Turkish|Τουρκική
TT|Trinidadian and Tobagonian|Τρινιντάντ και Τομπάγκο
TV|Tuvaluan|Τουβαλού
TW|Taiwanese|Ταϊβανέζικη
TZ|Tanzanian|Τανζανίας
UA|Ukrainian|Ουκρανική
UG|Ugandan|Ουγκάντας
US|American|Αμερικανική
UY|Uruguayan|Ουρουγουανή
UZ|Uzbek|Ουζμπεκική
VA|Vatican|Βατικανού
VC|Vincentian|Αγίου Βικεντίου και Γρεναδινών
VE|Venezuelan|Βενεζουελανή
VN|Vietnamese|Βιετναμέζικη
VU|Ni-Vanuatu|Βανουάτου
WS|Samoan|Σαμόα
YE|Yemeni|Υεμενική
ZA|South African|Νοτιοαφρικανική
ZM|Zambian|Ζάμπιας
ZW|Zimbabwean|Ζιμπάμπουε
`;

/** ISO code → [English, Greek]. */
export const NATIONALITIES: ReadonlyMap<string, readonly [en: string, el: string]> = new Map(
  TABLE.trim()
    .split('\n')
    .map((line) => {
      const [code, en, el] = line.split('|') as [string, string, string];
      return [code, [en, el] as const];
    }),
);

const lists = new Map<TCulture, string[]>();

/** A nationality in a language (undefined: none known for that code). */
export function nationalityOf(code: string, culture: TCulture, regionNames?: Intl.DisplayNames): string | undefined {
  const n = NATIONALITIES.get(code);
  if (!n) return undefined;
  if (culture === 'ru') return (regionNames ?? new Intl.DisplayNames([INTL_LOCALE.ru], { type: 'region', fallback: 'none' })).of(code);
  return culture === 'el' ? n[1] : n[0];
}

/**
 * The nationalities in the reader's language, in the countries' order (lib/countries.ts): Greece,
 * Cyprus, Russia and the neighbours first, then the European Union, then the others, each group in
 * the language's alphabetical order. Made once per language, when first asked for.
 */
export function nationalityNames(culture: TCulture): string[] {
  let list = lists.get(culture);
  if (list) return list;
  const locale = INTL_LOCALE[culture];
  const regions = culture === 'ru' ? new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' }) : undefined;
  const collator = new Intl.Collator(locale);
  const name = (code: string) => nationalityOf(code, culture, regions);
  const named = (codes: string[]) => codes.map(name).filter((n): n is string => !!n);
  const first = new Set(COUNTRIES_FIRST);
  const eu = new Set(COUNTRIES_EU);
  list = [
    ...named(COUNTRIES_FIRST),
    ...named(COUNTRIES_EU.filter((c) => !first.has(c))).sort(collator.compare),
    ...named([...NATIONALITIES.keys()].filter((c) => !first.has(c) && !eu.has(c))).sort(collator.compare),
  ];
  lists.set(culture, list);
  return list;
}
