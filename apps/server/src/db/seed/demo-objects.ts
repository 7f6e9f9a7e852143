import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { LinkKind, circleCentreAround } from '@crm/contract';
import type { Tx } from '../client.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { GREEK_STREETS } from './demo-names.ts';
import { demoPhotos, type DemoPhoto, type Scene } from './demo-photos.ts';
import { createClock, createRng, type Clock, type Rng } from './demo-time.ts';

/**
 * The demo agency's properties: flats in Kalamaria and the centre, maisonettes in Panorama and
 * Thermi, villas and plots in Kassandra and Sithonia, shops and offices in town, with prices,
 * sizes, features, coordinates near their place, photos, owners, tenants (current and past
 * contracts), short-let guests and the keys the staff hold. Deterministic (seeded); dates are
 * relative to today. Owner, search text and "has key" follow from the rows (migration 0014).
 */

type Place = { id: number; key: string; el: string; en: string; ru: string; lat: number; lon: number };
type Row = Record<string, unknown>;

type KindName =
  | 'flat' | 'studio' | 'holidayFlat' | 'maisonette' | 'house' | 'villa' | 'plot' | 'parcel' | 'shop' | 'office' | 'warehouse' | 'parking' | 'hotel' | 'building';

type Kind = {
  n: number;
  type: number;
  sub: number;
  /** Place keys (areas) it is found in. */
  places: string[];
  scenes: Scene[];
  el: string;
  en: string;
  ru: string;
};

const T = 'thessaloniki';
const C = 'chalkidiki';
const CITY_FLAT = [
  `${T}.kalamaria.kalamaria`, `${T}.kalamaria.karabournaki`, `${T}.kalamaria.aretsou`, `${T}.kalamaria.kifisia`, `${T}.kalamaria.vyzantio`,
  `${T}.kalamaria.nea-krini`, `${T}.thessaloniki.centre`, `${T}.thessaloniki.toumba`, `${T}.thessaloniki.charilaou`, `${T}.thessaloniki.analipsi`,
  `${T}.thessaloniki.faliro`, `${T}.thessaloniki.botsari`, `${T}.thessaloniki.nea-paralia`, `${T}.thessaloniki.ano-poli`, `${T}.thessaloniki.martiou`,
  `${T}.thessaloniki.triandria`, `${T}.neapoli-sykies.neapoli`, `${T}.neapoli-sykies.sykies`, `${T}.pylaia-chortiatis.pylaia`,
  `${T}.kordelio-evosmos.evosmos`, `${T}.pavlos-melas.stavroupoli`, `${T}.ampelokipoi-menemeni.ampelokipoi`, `${T}.thermaikos.perea`, `${T}.thermaikos.neoi-epivates`,
];

const KINDS: Record<KindName, Kind> = {
  flat: { n: 46, type: 1, sub: 1, places: CITY_FLAT, scenes: ['block'], el: 'Διαμέρισμα', en: 'apartment', ru: 'Квартира' },
  studio: { n: 8, type: 1, sub: 2, places: [`${T}.thessaloniki.rotonda`, `${T}.thessaloniki.agia-sofia`, `${T}.thessaloniki.ippodromio`, `${T}.thessaloniki.kato-toumba`, `${T}.thessaloniki.centre`, `${T}.thessaloniki.saranta-ekklisies`], scenes: ['block'], el: 'Γκαρσονιέρα', en: 'studio', ru: 'Студия' },
  holidayFlat: { n: 14, type: 1, sub: 1, places: [`${C}.nea-propontida.nea-moudania`, `${C}.nea-propontida.nea-kallikrateia`, `${C}.nea-propontida.flogita`, `${C}.kassandra.polychrono`, `${C}.kassandra.nea-fokea`, `${C}.sithonia.nikiti`, `${C}.sithonia.neos-marmaras`, `${C}.aristotelis.ierissos`, `${C}.polygyros.gerakini`, `${C}.polygyros.psakoudia`, `${T}.volvi.asprovalta`, `${T}.thermaikos.nea-michaniona`], scenes: ['block'], el: 'Διαμέρισμα', en: 'holiday apartment', ru: 'Квартира' },
  maisonette: { n: 18, type: 1, sub: 3, places: [`${T}.pylaia-chortiatis.panorama`, `${T}.pylaia-chortiatis.panorama`, `${T}.pylaia-chortiatis.pylaia`, `${T}.thermi.thermi`, `${T}.thermi.neo-rysio`, `${T}.thermi.nea-raidestos`, `${T}.thermaikos.perea`, `${T}.oraiokastro`, `${T}.thermi.trilofo`], scenes: ['house'], el: 'Μεζονέτα', en: 'maisonette', ru: 'Мезонет' },
  house: { n: 10, type: 1, sub: 4, places: [`${T}.pylaia-chortiatis.chortiatis`, `${T}.pylaia-chortiatis.asvestochori`, `${T}.thermi.tagarades`, `${T}.thermaikos.epanomi`, `${C}.nea-propontida.nea-kallikrateia`, `${T}.lagkadas.lagkadas`, `${T}.volvi.stavros`, `${T}.thermi.vasilika`], scenes: ['house'], el: 'Μονοκατοικία', en: 'detached house', ru: 'Дом' },
  villa: { n: 16, type: 1, sub: 5, places: [`${C}.kassandra.kallithea`, `${C}.kassandra.pefkochori`, `${C}.kassandra.chaniotis`, `${C}.kassandra.afytos`, `${C}.kassandra.sani`, `${C}.kassandra.polychrono`, `${C}.sithonia.nikiti`, `${C}.sithonia.vourvourou`, `${C}.sithonia.sarti`, `${C}.sithonia.toroni`, `${C}.sithonia.kalamitsi`, `${C}.aristotelis.ouranoupoli`, `${T}.pylaia-chortiatis.panorama`], scenes: ['villa'], el: 'Βίλα', en: 'villa', ru: 'Вилла' },
  plot: { n: 14, type: 3, sub: 13, places: [`${C}.kassandra.kassandreia`, `${C}.kassandra.fourka`, `${C}.kassandra.siviri`, `${C}.kassandra.pefkochori`, `${C}.sithonia.nikiti`, `${C}.sithonia.sykia`, `${C}.sithonia.porto-koufo`, `${T}.thermi.thermi`, `${T}.thermaikos.epanomi`, `${T}.thermaikos.nea-michaniona`, `${T}.pylaia-chortiatis.panorama`, `${T}.thermi.trilofo`], scenes: ['land'], el: 'Οικόπεδο', en: 'building plot', ru: 'Участок под застройку' },
  parcel: { n: 5, type: 3, sub: 14, places: [`${T}.lagkadas.sochos`, `${T}.lagkadas.assiros`, `${T}.thermi.vasilika`, `${C}.aristotelis.arnaia`, `${C}.polygyros.taxiarchis`, `${C}.aristotelis.olympiada`], scenes: ['land'], el: 'Αγροτεμάχιο', en: 'land parcel', ru: 'Земельный участок' },
  shop: { n: 8, type: 2, sub: 8, places: [`${T}.thessaloniki.centre`, `${T}.thessaloniki.aristotelous`, `${T}.thessaloniki.ladadika`, `${T}.thessaloniki.vardaris`, `${T}.kalamaria.kalamaria`, `${T}.thessaloniki.toumba`, `${T}.neapoli-sykies.neapoli`], scenes: ['shop'], el: 'Κατάστημα', en: 'shop', ru: 'Магазин' },
  office: { n: 6, type: 2, sub: 7, places: [`${T}.thessaloniki.centre`, `${T}.thessaloniki.aristotelous`, `${T}.kalamaria.kalamaria`, `${T}.pylaia-chortiatis.pylaia`, `${T}.thessaloniki.vardaris`], scenes: ['shop'], el: 'Γραφείο', en: 'office', ru: 'Офис' },
  warehouse: { n: 3, type: 2, sub: 9, places: [`${T}.delta.kalochori`, `${T}.delta.sindos`, `${T}.thermi.nea-raidestos`], scenes: ['shop'], el: 'Αποθήκη', en: 'warehouse', ru: 'Склад' },
  parking: { n: 3, type: 4, sub: 15, places: [`${T}.thessaloniki.centre`, `${T}.kalamaria.kalamaria`, `${T}.thessaloniki.toumba`], scenes: ['block'], el: 'Θέση στάθμευσης', en: 'parking space', ru: 'Парковочное место' },
  hotel: { n: 2, type: 2, sub: 11, places: [`${C}.kassandra.polychrono`, `${C}.aristotelis.ouranoupoli`], scenes: ['villa'], el: 'Ξενοδοχείο', en: 'hotel', ru: 'Гостиница' },
  building: { n: 1, type: 1, sub: 6, places: [`${T}.thessaloniki.charilaou`], scenes: ['block'], el: 'Πολυκατοικία', en: 'apartment building', ru: 'Жилой дом' },
};

/** Postcodes by municipality (the areas of one share it in the demo). */
const ZIP: Record<string, string[]> = {
  'thessaloniki.thessaloniki': ['54622', '54623', '54624', '54625', '54631', '54632', '54635', '54636', '54640', '54641', '54642', '54643', '54644', '54645', '54646'],
  'thessaloniki.kalamaria': ['55131', '55132', '55133', '55134'],
  'thessaloniki.pylaia-chortiatis': ['55535', '55236', '57010'],
  'thessaloniki.thermi': ['57001'],
  'thessaloniki.neapoli-sykies': ['56728', '56626'],
  'thessaloniki.pavlos-melas': ['56430'],
  'thessaloniki.kordelio-evosmos': ['56224'],
  'thessaloniki.ampelokipoi-menemeni': ['56123'],
  'thessaloniki.oraiokastro': ['57013'],
  'thessaloniki.thermaikos': ['57019', '57004', '57500'],
  'thessaloniki.delta': ['57022', '57009'],
  'thessaloniki.lagkadas': ['57200'],
  'thessaloniki.volvi': ['57021', '57014'],
  'chalkidiki.nea-propontida': ['63200', '63080'],
  'chalkidiki.kassandra': ['63077', '63085', '63088'],
  'chalkidiki.sithonia': ['63088', '63081', '63072'],
  'chalkidiki.polygyros': ['63100'],
  'chalkidiki.aristotelis': ['63075'],
};

const FEATURE_TEXT: Record<string, [string, string]> = {
  elevator: ['ανελκυστήρα', 'lift'],
  airCondition: ['κλιματιστικά', 'air conditioning'],
  doubleGlass: ['διπλά τζάμια', 'double glazing'],
  secureDoor: ['πόρτα ασφαλείας', 'security door'],
  storageSpace: ['αποθήκη', 'storage room'],
  parking: ['θέση στάθμευσης', 'parking space'],
  fireplace: ['τζάκι', 'fireplace'],
  solarWaterHeating: ['ηλιακό θερμοσίφωνα', 'solar water heater'],
  underFloorHeating: ['ενδοδαπέδια θέρμανση', 'underfloor heating'],
  alarm: ['συναγερμό', 'alarm system'],
  awning: ['τέντες', 'awnings'],
  garden: ['ιδιωτικό κήπο', 'private garden'],
  swimmingPool: ['ιδιωτική πισίνα', 'private swimming pool'],
  windowScreens: ['σίτες', 'insect screens'],
  internalStaircase: ['εσωτερική σκάλα', 'internal staircase'],
  playroom: ['playroom', 'playroom'],
  seaView: ['θέα στη θάλασσα', 'sea view'],
  view: ['ανοιχτή θέα', 'open view'],
};

const HEATING_TEXT: Record<string, [string, string]> = {
  '1-2': ['Αυτόνομη θέρμανση φυσικού αερίου.', 'Independent natural gas heating.'],
  '3-1': ['Κεντρική θέρμανση πετρελαίου με θερμιδομετρητές.', 'Central oil heating with individual meters.'],
  '2-1': ['Κεντρική θέρμανση πετρελαίου.', 'Central oil heating.'],
  '1-4': ['Αυτόνομη θέρμανση με αντλία θερμότητας.', 'Independent heating by heat pump.'],
  '1-3': ['Θέρμανση με κλιματιστικά.', 'Heating by air conditioners.'],
};

const floorEl = (f: number) => (f === 0 ? 'ισόγειο' : f === -1 ? 'υπόγειο' : `${f}ος όροφος`);
const floorEn = (f: number) => (f === 0 ? 'ground floor' : f === -1 ? 'basement' : `${f}${f === 1 ? 'st' : f === 2 ? 'nd' : f === 3 ? 'rd' : 'th'} floor`);
const floorRu = (f: number) => (f === 0 ? 'первый этаж' : `${f + 1}-й этаж`);
const bedroomsEl = (n: number) => (n === 1 ? '1 υπνοδωμάτιο' : `${n} υπνοδωμάτια`);
const bedroomsEn = (n: number) => (n === 1 ? '1 bedroom' : `${n} bedrooms`);
const bedroomsRu = (n: number) => (n === 1 ? '1 спальня' : n < 5 ? `${n} спальни` : `${n} спален`);
const bathsEl = (n: number) => (n === 1 ? 'μπάνιο' : `${n} μπάνια`);
const bathsEn = (n: number) => (n === 1 ? 'a bathroom' : `${n} bathrooms`);
/** "a" or "an" before a number as it is said ("an 85 m² flat", "an 18 m² studio", "a 120 m² house"). */
const aEn = (n: number) => (/^8/.test(String(n)) || n === 11 || n === 18 ? 'an' : 'a');
/** Where a floor is, as an English listing says it: "on the 3rd floor", "on the ground floor", "in the basement". */
const onFloorEn = (f: number) => (f === -1 ? 'in the basement' : `on the ${floorEn(f)}`);
const euro = (n: number) => `${n.toLocaleString('el-GR').replace(/\./g, ' ')} €`;
const round = (n: number, step: number) => Math.max(step, Math.round(n / step) * step);

type Built = {
  row: Row;
  kind: KindName;
  created: Date;
  photos: Scene[];
  /** Index into the owners list. */
  owner: number;
  coOwner?: number;
  tenants: { client: number; relation: 4 | 7; start: string; end: string | null; price: number; day: number | null }[];
  key?: { employee: number; received: string; givenAway: string | null; description: string };
  createdByEmployee: number;
};

/** Builds the demo properties in memory (no database access). */
export function buildDemoObjects(clock: Clock, places: Map<string, Place>, counts: { owners: number; clients: number; employees: number }, seed = 20240611): Built[] {
  const rng = createRng(seed);
  const today = clock.dateOnly(clock.now);
  const year = Number(today.slice(0, 4));
  const day = (offset: number) => clock.dateOnly(clock.at(offset, 12, 0));
  const built: Built[] = [];
  const ownerOrder = Array.from({ length: counts.owners }, (_, i) => i);
  let nextOwner = 0;
  const pickOwner = () => (nextOwner < ownerOrder.length ? ownerOrder[nextOwner++]! : rng.int(0, counts.owners - 1));

  for (const [name, kind] of Object.entries(KINDS) as [KindName, Kind][]) {
    for (let i = 0; i < kind.n; i++) {
      const place = places.get(kind.places[i % kind.places.length]!);
      if (!place) continue;
      const municipality = place.key.split('.').slice(0, 2).join('.');
      const seaside = place.key.startsWith(C) || /aretsou|karabournaki|nea-krini|nea-paralia|perea|neoi-epivates|nea-michaniona|asprovalta|stavros|epanomi|agia-triada/.test(place.key);
      const central = /thessaloniki\.thessaloniki|kalamaria/.test(place.key);
      const f: Row = {};
      const yes = (...names: string[]) => names.forEach((n) => (f[n] = true));
      const maybe = (p: number, ...names: string[]) => names.forEach((n) => rng.chance(p) && (f[n] = true));
      let area: number;
      let bedrooms: number | null = null;
      let baths: number | null = null;
      let floor: number | null = null;
      let levels: number | null = null;
      let lot: number | null = null;
      let buildable: number | null = null;
      let built_: number | null = null;
      let sale: number | null = null;
      let rent: number | null = null;
      let shortRent: number | null = null;
      let heating = '1-2';
      let energy: number | null = rng.int(3, 7);
      let zone: number | null = 1;
      let access: number | null = 1;

      switch (name) {
        case 'flat': {
          bedrooms = rng.weighted([[1, 3], [2, 5], [3, 4], [4, 1]] as const);
          area = round(35 + bedrooms * 22 + rng.int(-8, 20), 1);
          baths = bedrooms >= 3 && rng.chance(0.6) ? 2 : 1;
          floor = rng.int(0, 7);
          built_ = rng.int(1968, 2023);
          const perM2 = /kalamaria|nea-paralia|faliro/.test(place.key) ? rng.int(2300, 3600) : central ? rng.int(1800, 3000) : /perea|neoi-epivates|pylaia/.test(place.key) ? rng.int(1800, 2700) : rng.int(1200, 1900);
          if (rng.chance(0.62)) sale = round(area * perM2, 5000);
          else rent = round(area * rng.int(8, 13), 10);
          heating = built_ > 2000 ? rng.pick(['1-2', '1-4']) : rng.pick(['3-1', '2-1', '1-2']);
          yes('balcony', 'doubleGlass');
          maybe(0.85, 'elevator');
          maybe(0.7, 'airCondition', 'secureDoor');
          maybe(0.5, 'storageSpace', 'bright', 'awning');
          maybe(built_ > 2000 ? 0.7 : 0.25, 'parking');
          if (built_ < 1995 && rng.chance(0.4)) yes('renovated');
          if (seaside && rng.chance(0.5)) yes('seaView');
          if (rent && rng.chance(0.4)) yes('furnished');
          if (/centre|agia-sofia|rotonda|ippodromio|kato-toumba|martiou/.test(place.key) && rng.chance(0.4)) yes('student');
          energy = built_ > 2012 ? rng.int(1, 3) : built_ > 1995 ? rng.int(4, 6) : rng.int(6, 9);
          break;
        }
        case 'studio': {
          bedrooms = 0;
          area = rng.int(24, 40);
          baths = 1;
          floor = rng.int(0, 6);
          built_ = rng.int(1965, 2000);
          rent = round(area * rng.int(10, 14), 10);
          if (rng.chance(0.3)) {
            sale = round(area * rng.int(1700, 2400), 1000);
            rent = null;
          }
          heating = rng.pick(['3-1', '2-1']);
          yes('student', 'doubleGlass');
          maybe(0.6, 'furnished', 'airCondition', 'elevator');
          energy = rng.int(6, 9);
          break;
        }
        case 'holidayFlat': {
          bedrooms = rng.int(1, 2);
          area = round(35 + bedrooms * 18 + rng.int(0, 15), 1);
          baths = 1;
          floor = rng.int(0, 2);
          built_ = rng.int(1985, 2022);
          sale = round(area * rng.int(1500, 2800), 5000);
          if (rng.chance(0.45)) shortRent = round(rng.int(55, 140), 5);
          heating = '1-3';
          yes('balcony', 'airCondition', 'solarWaterHeating', 'windowScreens');
          maybe(0.6, 'seaView', 'furnished');
          maybe(0.4, 'parking', 'garden');
          if (rng.chance(0.25)) f.firstCoastLine = true;
          f.distanceFromSea = rng.pick([30, 80, 150, 250, 400, 700]);
          zone = rng.chance(0.5) ? 5 : 1;
          break;
        }
        case 'maisonette': {
          bedrooms = rng.int(3, 4);
          area = rng.int(115, 220);
          baths = rng.int(2, 3);
          levels = rng.int(2, 3);
          floor = 0;
          built_ = rng.int(1995, 2024);
          lot = rng.chance(0.6) ? rng.int(250, 900) : null;
          sale = round(area * (/panorama/.test(place.key) ? rng.int(2400, 3400) : rng.int(1800, 2700)), 5000);
          if (rng.chance(0.18)) {
            rent = round(area * rng.int(7, 10), 50);
            sale = null;
          }
          heating = rng.pick(['1-2', '1-4', '1-2']);
          yes('internalStaircase', 'garden', 'parking', 'doubleGlass', 'secureDoor');
          maybe(0.7, 'fireplace', 'storageSpace', 'airCondition');
          maybe(0.4, 'playroom', 'underFloorHeating', 'alarm', 'view');
          if (built_ > 2020) yes('newBuilding');
          energy = built_ > 2012 ? rng.int(1, 3) : rng.int(3, 5);
          break;
        }
        case 'house': {
          bedrooms = rng.int(2, 4);
          area = rng.int(90, 240);
          baths = rng.int(1, 2);
          levels = rng.int(1, 2);
          built_ = rng.int(1975, 2015);
          lot = rng.int(300, 1500);
          sale = round(area * rng.int(1100, 2000) + lot * rng.int(30, 80), 5000);
          heating = rng.pick(['1-2', '1-4', '1-3']);
          yes('garden', 'parking', 'storageSpace');
          maybe(0.6, 'fireplace', 'solarWaterHeating', 'view');
          if (seaside && rng.chance(0.5)) yes('seaView');
          zone = rng.chance(0.3) ? 7 : 1;
          access = rng.chance(0.8) ? 1 : 2;
          break;
        }
        case 'villa': {
          bedrooms = rng.int(3, 6);
          area = bedrooms * 45 + rng.int(20, 150);
          baths = bedrooms - rng.int(0, 1);
          levels = rng.int(2, 3);
          built_ = rng.int(2004, 2025);
          lot = rng.int(700, 4500);
          sale = round(area * rng.int(2800, 6500), 10000);
          if (rng.chance(0.5)) shortRent = round(rng.int(280, 950), 10);
          heating = '1-4';
          yes('swimmingPool', 'garden', 'parking', 'seaView', 'airCondition', 'alarm', 'luxurious', 'underFloorHeating');
          maybe(0.6, 'fireplace', 'furnished');
          if (rng.chance(0.3)) f.firstCoastLine = true;
          f.distanceFromSea = f.firstCoastLine ? rng.int(10, 40) : rng.int(80, 1200);
          f.distanceFromAirport = place.key.startsWith(C) ? rng.int(60, 120) * 1000 : rng.int(14, 22) * 1000;
          energy = rng.int(1, 3);
          zone = 5;
          if (sale >= 400000) f.eligibleForGoldenVisa = true;
          break;
        }
        case 'plot': {
          // A plot in a town plan builds 40–80 % of its area; a large one outside it, at most some 200–400 m².
          lot = round(rng.weighted([[rng.int(350, 1200), 3], [rng.int(1200, 2500), 2], [rng.int(4000, 12000), 2]] as const), 10);
          area = lot;
          buildable = lot <= 1200 ? round(lot * rng.pick([0.4, 0.6, 0.8]), 1) : round(Math.min(lot * rng.int(5, 12) / 100, rng.int(200, 400)), 1);
          sale = round(lot * (lot > 2500 ? rng.int(15, 55) : rng.int(70, 230)) * (seaside && place.key.startsWith(C) ? 1.3 : 1), 5000);
          yes('buildableLand');
          if (seaside && rng.chance(0.6)) yes('seaView');
          zone = place.key.startsWith(C) ? rng.pick([5, 7, 1]) : rng.pick([1, 7]);
          access = rng.chance(0.7) ? 1 : 2;
          energy = null;
          heating = '';
          break;
        }
        case 'parcel': {
          lot = round(rng.int(2500, 25000), 50);
          area = lot;
          sale = round(lot * rng.int(3, 14), 1000);
          zone = 4;
          access = 2;
          energy = null;
          heating = '';
          break;
        }
        case 'shop': {
          area = rng.int(30, 260);
          baths = 1;
          floor = 0;
          built_ = rng.int(1960, 2010);
          if (rng.chance(0.55)) rent = round(area * rng.int(12, 28), 50);
          else sale = round(area * rng.int(2500, 6000), 5000);
          heating = '1-3';
          yes('facade', 'airCondition', 'alarm');
          maybe(0.3, 'corner');
          zone = 2;
          energy = rng.int(4, 8);
          break;
        }
        case 'office': {
          area = rng.int(55, 320);
          baths = rng.int(1, 2);
          floor = rng.int(1, 6);
          built_ = rng.int(1970, 2015);
          if (rng.chance(0.65)) rent = round(area * rng.int(9, 16), 50);
          else sale = round(area * rng.int(1600, 3200), 5000);
          heating = rng.pick(['3-1', '1-3']);
          yes('elevator', 'airCondition', 'doubleGlass');
          maybe(0.5, 'parking', 'alarm');
          zone = 2;
          break;
        }
        case 'warehouse': {
          area = round(rng.int(300, 2500), 10);
          lot = round(area * rng.int(2, 4), 10);
          built_ = rng.int(1985, 2012);
          if (rng.chance(0.6)) rent = round(area * rng.int(2, 4), 100);
          else sale = round(area * rng.int(380, 750), 10000);
          heating = '';
          energy = 10;
          yes('parking');
          zone = 3;
          break;
        }
        case 'parking': {
          area = rng.int(12, 16);
          floor = -1;
          if (rng.chance(0.5)) sale = round(rng.int(14000, 32000), 500);
          else rent = round(rng.int(70, 120), 5);
          heating = '';
          energy = null;
          break;
        }
        case 'hotel': {
          bedrooms = rng.int(14, 32);
          area = bedrooms * rng.int(28, 40);
          baths = bedrooms;
          levels = rng.int(2, 3);
          built_ = rng.int(1985, 2008);
          lot = rng.int(2000, 6000);
          sale = round(bedrooms * rng.int(70000, 120000), 50000);
          heating = '1-4';
          yes('swimmingPool', 'airCondition', 'parking', 'seaView', 'garden');
          f.investment = true;
          f.distanceFromSea = rng.int(30, 300);
          zone = 5;
          break;
        }
        case 'building': {
          bedrooms = 12;
          area = 640;
          baths = 8;
          levels = 5;
          built_ = 1972;
          lot = 260;
          sale = 1150000;
          heating = '2-1';
          yes('elevator', 'investment');
          yes('requiredRenovation');
          break;
        }
      }

      const created = clock.past(-rng.int(2, 700), rng.int(9, 19), rng.pick([0, 10, 20, 30, 40, 50]));
      const [heatingType, heatingMedium] = heating ? heating.split('-').map(Number) : [null, null];
      const jitter = name === 'villa' || name === 'plot' || name === 'parcel' || name === 'house' ? 0.012 : 0.004;
      const lat = +(place.lat + (rng.next() - 0.5) * 2 * jitter).toFixed(6);
      const lon = +(place.lon + (rng.next() - 0.5) * 2 * jitter * 1.3).toFixed(6);
      const exact = ['shop', 'office', 'warehouse', 'plot', 'parcel', 'hotel', 'building'].includes(name) || rng.chance(0.2);
      const street = central || /neapoli|sykies|pylaia|evosmos|stavroupoli|ampelokipoi/.test(place.key) ? `${rng.pick(GREEK_STREETS)} ${rng.int(1, 160)}` : null;
      const residential = kind.type === 1;
      const features = Object.keys(f).filter((k) => FEATURE_TEXT[k] && f[k] === true);

      // Titles and descriptions: the main ones in Greek for the local market; every one also in English
      // and in Russian (the office writes them for buyers from abroad, so an English or Russian screen,
      // the site and the portals never show a property by its Greek title).
      const abroad = place.key.startsWith(C) && ['villa', 'holidayFlat', 'plot', 'hotel'].includes(name);
      const areaEl = name === 'plot' || name === 'parcel' ? `${area.toLocaleString('el-GR')} τ.μ.` : `${area} τ.μ.`;
      const titleEl = [
        kind.el,
        areaEl,
        bedrooms && name !== 'hotel' && name !== 'building' ? bedroomsEl(bedrooms) : null,
        floor !== null && residential && name !== 'studio' && name !== 'flat' ? null : floor !== null && name !== 'parking' ? floorEl(floor) : null,
        place.el,
      ].filter(Boolean).join(', ');
      // As an English-speaking agent heads a listing: "Sea-view 3-bedroom villa in Pefkochori, 180 m²".
      const titleEn = `${f.seaView ? 'sea-view ' : ''}${bedrooms && residential && name !== 'building' && name !== 'hotel' ? `${bedrooms}-bedroom ` : ''}${kind.en} in ${place.en}, ${(name === 'plot' || name === 'parcel' ? lot ?? area : area).toLocaleString('en-GB')} m²`.replace(/^./, (c) => c.toUpperCase());
      // (The draw that once chose which ones had a Russian title is still made: the rest of the demo stays as it was.)
      void (abroad ? rng.chance(0.6) : (sale ?? 0) > 300000 && rng.chance(0.35));
      const titleRu = `${kind.ru} ${area} м²${bedrooms && residential && name !== 'building' ? `, ${bedroomsRu(bedrooms)}` : ''}, ${place.ru}`;

      const el: string[] = [];
      const en: string[] = [];
      const offer = sale ? 'Πωλείται' : rent ? 'Ενοικιάζεται' : 'Διατίθεται';
      const offerEn = `${sale ? 'For sale' : rent ? 'To let' : 'Holiday let'} in ${place.en}`;
      if (name === 'plot' || name === 'parcel') {
        el.push(`${offer} ${name === 'plot' ? 'άρτιο και οικοδομήσιμο οικόπεδο' : 'αγροτεμάχιο'} ${lot!.toLocaleString('el-GR')} τ.μ. (${place.el})${buildable ? `, με δυνατότητα δόμησης ${buildable} τ.μ.` : ''}.`);
        en.push(`${offerEn}: ${name === 'plot' ? 'a building plot' : 'a land parcel'} of ${lot!.toLocaleString('en-GB')} m²${buildable ? `, with a building allowance of ${buildable} m²` : ''}.`);
        if (f.seaView) {
          el.push('Ανεμπόδιστη θέα στη θάλασσα.');
          en.push('Unobstructed sea view.');
        }
        el.push(access === 1 ? 'Πρόσβαση από ασφαλτόδρομο, ρεύμα και νερό στο όριο.' : 'Πρόσβαση από χωματόδρομο· ελαιόδεντρα.');
        en.push(access === 1 ? 'Tarmac road access, with mains electricity and water at the boundary.' : 'Reached by a dirt track; olive trees on the land.');
      } else {
        const what = name === 'building' ? 'πολυκατοικία 5 ορόφων με 8 διαμερίσματα' : `${kind.el.toLowerCase()} ${area} τ.μ.`;
        el.push(`${offer} ${what}${floor !== null && name !== 'parking' ? `, ${floorEl(floor)}` : ''}${built_ ? `, κατασκευής ${built_}` : ''}${levels && levels > 1 ? `, σε ${levels} επίπεδα` : ''}${lot && name !== 'building' ? `, σε οικόπεδο ${lot.toLocaleString('el-GR')} τ.μ.` : ''}.`);
        en.push(`${offerEn}: ${name === 'building' ? 'a five-storey building of 8 apartments' : `${aEn(area)} ${area} m² ${kind.en}`}${floor !== null && name !== 'parking' ? ` ${onFloorEn(floor)}` : ''}${built_ ? `, built in ${built_}` : ''}${levels && levels > 1 ? `, over ${levels} levels` : ''}${lot && name !== 'building' ? `, set on a ${lot.toLocaleString('en-GB')} m² plot` : ''}.`);
        if (bedrooms && residential && name !== 'building' && name !== 'hotel') {
          el.push(`Αποτελείται από σαλόνι, κουζίνα, ${bedroomsEl(bedrooms)} και ${bathsEl(baths ?? 1)}.`);
          en.push(`It has a living room, kitchen, ${bedroomsEn(bedrooms)} and ${bathsEn(baths ?? 1)}.`);
        } else if (name === 'studio') {
          el.push('Ενιαίος χώρος με κουζινάκι και μπάνιο, ιδανικό για φοιτητές.');
          en.push('Open-plan living space with a kitchenette and shower room: ideal for a student.');
        } else if (name === 'hotel') {
          el.push(`${bedrooms} δωμάτια με μπάνιο, εστιατόριο, πισίνα· λειτουργεί με άδεια ΕΟΤ.`);
          en.push(`${bedrooms} en-suite rooms, restaurant and pool; operating with a tourism licence.`);
        }
        if (features.length) {
          el.push(`Διαθέτει ${features.map((k) => FEATURE_TEXT[k]![0]).join(', ')}.`);
          en.push(`Features include ${features.map((k) => FEATURE_TEXT[k]![1]).join(', ')}.`);
        }
        if (f.renovated) {
          el.push('Πρόσφατη ανακαίνιση.');
          en.push('Recently renovated throughout.');
        }
        if (f.furnished) {
          el.push('Πλήρης επίπλωση και ηλεκτρικές συσκευές.');
          en.push('Fully furnished and equipped.');
        }
        const h = HEATING_TEXT[heating];
        if (h) {
          el.push(h[0]);
          en.push(h[1]);
        }
        if (energy && energy <= 9) {
          const cls = ['A+', 'A', 'B+', 'B', 'Γ', 'Δ', 'Ε', 'Ζ', 'Η'][energy - 1]!;
          el.push(`Ενεργειακή κλάση ${cls}.`);
          en.push(`Energy class ${['A+', 'A', 'B+', 'B', 'C', 'D', 'E', 'F', 'G'][energy - 1]}.`);
        }
        if (central && residential) {
          el.push(rng.pick(['Κοντά σε σχολεία, σούπερ μάρκετ και συγκοινωνία.', 'Σε απόσταση λίγων λεπτών από σταθμό του μετρό.', 'Σε ήσυχο δρόμο, κοντά σε πάρκο.']));
          en.push('Close to schools, shops and public transport.');
        }
        if (shortRent) {
          el.push(`Διατίθεται και για βραχυχρόνια μίσθωση: ${euro(shortRent)} τη βραδιά.`);
          en.push(`Also available as a holiday let at ${euro(shortRent)} a night.`);
        }
        if (rent && residential) {
          el.push(`Μηνιαίο μίσθωμα ${euro(rent)}· εγγύηση δύο μισθωμάτων.`);
          en.push(`Rent ${euro(rent)} a month, with two months' deposit.`);
        }
      }
      const sentences = (list: string[]) => list.join(' ').replace(/\.\./g, '.');
      const description = sentences(el);
      const descriptionEn = sentences(en);
      const descriptionRu = `${sale ? 'Продаётся' : 'Сдаётся'}: ${kind.ru.toLowerCase()} ${area} м², ${place.ru}.${bedrooms && residential && name !== 'building' ? ` ${bedroomsRu(bedrooms)[0]!.toUpperCase()}${bedroomsRu(bedrooms).slice(1)}.` : ''}${floor !== null && floor >= 0 && residential ? ` ${floorRu(floor)[0]!.toUpperCase()}${floorRu(floor).slice(1)}.` : ''}${f.seaView ? ' Вид на море.' : ''}${f.swimmingPool ? ' Бассейн.' : ''}`;

      const discount = sale && rng.chance(0.12);
      const row: Row = {
        title: titleEl,
        title_en: titleEn,
        title_ru: titleRu,
        description,
        description_en: descriptionEn,
        description_ru: descriptionRu,
        sub_type_object_type_id: kind.type,
        object_sub_type_id: kind.sub,
        for_sale: sale !== null,
        for_rent: rent !== null,
        for_short_rent: shortRent !== null,
        active: rng.chance(0.9),
        sale_price: sale,
        sale_price_with_discount: discount ? round(sale! * 0.94, 1000) : null,
        date_of_sale_price_discount: discount ? day(-rng.int(3, 60)) : null,
        rent_price: rent,
        short_rent_price: shortRent,
        area,
        bedrooms,
        bathrooms: baths,
        living_rooms: residential && name !== 'studio' && name !== 'building' ? 1 : null,
        kitchens: residential && name !== 'building' ? 1 : null,
        wc: residential && (bedrooms ?? 0) >= 3 && rng.chance(0.5) ? 1 : null,
        floor,
        levels,
        lot_area: lot,
        buildable_area: buildable,
        size_of_balconies: f.balcony ? rng.int(6, 30) : null,
        parking_lots: f.parking ? (name === 'villa' ? 2 : 1) : null,
        construction_year: built_,
        renovation_year: f.renovated ? rng.int(2015, year - 1) : null,
        energy_class: energy,
        heating: heatingType,
        heating_medium: heatingMedium,
        frames_type: residential ? rng.pick([1, 2, 4, 4]) : null,
        floors_type: residential ? rng.pick([1, 2, 3, 4]) : null,
        orientation: residential ? [...new Set([rng.int(1, 8), rng.int(3, 6)])].sort((a, b) => a - b) : [],
        zone,
        access_from: access,
        average_monthly_shared_expenses: floor !== null && floor > 0 && residential ? rng.int(2, 9) * 10 : null,
        date_available: rent ? day(rng.int(0, 60)) : null,
        location_id: place.id,
        address: street,
        display_address: street !== null && !residential,
        zip_code: rng.pick(ZIP[municipality] ?? ['']) || null,
        latitude: lat,
        longitude: lon,
        // A hidden address hides the point too (decision 013): such a home shows its area, a circle
        // drawn with a generator of its own so that the rest of the demo stays as it was.
        display_coordinates: exact && !(residential && street !== null),
        map_zoom: exact && !(residential && street !== null) ? 17 : 15,
        ...(exact
          ? residential && street !== null
            ? demoCircle(lat, lon, createRng(Math.round(lat * 1e6) ^ Math.round(lon * 1e6)))
            : { map_circle_latitude: null, map_circle_longitude: null, map_circle_radius: null }
          : demoCircle(lat, lon, rng)),
        internal_notes: rng.chance(0.4)
          ? rng.pick([
              'Ο ιδιοκτήτης δέχεται διαπραγμάτευση έως 5%.',
              'Υποδείξεις μόνο απογεύματα μετά τις 17:00.',
              'Το κλειδί στο γραφείο· ενημέρωση ιδιοκτήτη πριν από κάθε επίσκεψη.',
              'Εκκρεμεί ΠΕΑ — ο μηχανικός έχει ειδοποιηθεί.',
              'Αποκλειστική ανάθεση έως τέλος του έτους.',
              'Χρειάζεται βάψιμο πριν από τη φωτογράφιση.',
            ])
          : null,
        video_url: name === 'villa' && rng.chance(0.4) ? `https://www.youtube.com/watch?v=${randomId(rng)}` : null,
        featured: rng.chance(0.1),
        recommended: rng.chance(0.12),
        published: rng.chance(0.55),
        rented: false,
        ...Object.fromEntries(Object.entries(f).map(([k, v]) => [k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(), v])),
      };

      const photos: Scene[] = [kind.scenes[0]!];
      const extra = name === 'plot' || name === 'parcel' ? rng.int(1, 2) : name === 'parking' ? 0 : rng.int(2, 5);
      for (let k = 0; k < extra; k++) photos.push(name === 'plot' || name === 'parcel' ? 'land' : residential ? (k % 3 === 1 ? 'kitchen' : 'room') : kind.scenes[0]!);

      const b: Built = { row, kind: name, created, photos, owner: pickOwner(), tenants: [], createdByEmployee: rng.int(0, counts.employees - 1) };
      if (rng.chance(0.1)) b.coOwner = rng.int(0, counts.owners - 1);

      // Tenants: long lets (3 years, the Greek default) current and past; holiday guests for short lets.
      if (rent !== null && counts.clients > 0) {
        const clients = new Set<number>();
        const pickClient = () => {
          let c = rng.int(0, counts.clients - 1);
          for (let g = 0; clients.has(c) && g < 10; g++) c = rng.int(0, counts.clients - 1);
          clients.add(c);
          return c;
        };
        const payDay = () => rng.pick([1, 5, 10, 0, 0, -3]);
        const iso = (d: Date) => d.toISOString().slice(0, 10);
        const plusYears = (date: string, n: number) => `${Number(date.slice(0, 4)) + n}${date.slice(4)}`.replace(/-02-29$/, '-02-28');
        let pastEnd: string | null = null;
        if (rng.chance(0.55)) {
          const end = `${year - rng.int(1, 2)}-${String(rng.int(1, 12)).padStart(2, '0')}-${rng.pick(['15', '28'])}`;
          b.tenants.push({ client: pickClient(), relation: 4, start: plusYears(end, -3), end, price: round((rent * rng.int(82, 95)) / 100, 10), day: payDay() });
          pastEnd = end;
        }
        if (rng.chance(0.6)) {
          const start = pastEnd ? iso(new Date(Date.parse(`${pastEnd}T12:00:00Z`) + rng.int(10, 60) * 86400000)) : day(-rng.int(60, 900));
          if (start < today) {
            const end = plusYears(start, 3);
            b.tenants.push({ client: pickClient(), relation: 4, start, end, price: rent, day: payDay() });
            b.row.rented = true;
            b.row.date_available = end;
          }
        }
      }
      if (shortRent !== null && counts.clients > 0) {
        const used = new Set<number>();
        for (let g = 0; g < rng.int(1, 3); g++) {
          const c = rng.int(0, counts.clients - 1);
          if (used.has(c)) continue;
          used.add(c);
          const y = year - rng.int(0, 1);
          const month = rng.pick(['06', '07', '08', '09']);
          const from = rng.int(1, 18);
          const nights = rng.int(4, 12);
          const start = `${y}-${month}-${String(from).padStart(2, '0')}`;
          const end = `${y}-${month}-${String(from + nights).padStart(2, '0')}`;
          if (end >= today) continue;
          b.tenants.push({ client: c, relation: 7, start, end, price: shortRent * nights, day: null });
        }
      }
      // Keys: the agency holds keys of many homes it lets or sells; some went back to the owner.
      if (name !== 'plot' && name !== 'parcel' && rng.chance(rent ? 0.7 : 0.4)) {
        const received = day(-rng.int(5, 400));
        const back = rng.chance(0.2);
        b.key = {
          employee: rng.int(0, counts.employees - 1),
          received,
          givenAway: back ? day(-rng.int(0, 4)) : null,
          description: rng.pick(['2 κλειδιά: είσοδος πολυκατοικίας και διαμέρισμα.', 'Ένα κλειδί και τηλεχειριστήριο γκαραζόπορτας.', 'Κλειδί εξώπορτας και αποθήκης.', 'Σετ κλειδιών με μπρελόκ του γραφείου.', 'Κάρτα εισόδου και κλειδί.']),
        };
      }
      built.push(b);
    }
  }
  return built;
}

function randomId(rng: Rng) {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  return Array.from({ length: 11 }, () => chars[rng.int(0, chars.length - 1)]).join('');
}

const OBJECT_COLUMNS_SQL = (rows: Row[]) => [...new Set(rows.flatMap((r) => Object.keys(r)))];

/**
 * Loads the demo properties, their photos, owners, tenants and keys. Needs the demo accounts
 * (owners, clients, employees); returns what it loaded.
 */
export async function seedDemoObjects(tx: Tx, opts: { timeZone: string; dataDir: string; now?: Date }) {
  const clock = createClock(opts.now ?? new Date(), opts.timeZone);
  const placeRows = (await tx.execute(sql`select id, key, name_el as el, name_en as en, name_ru as ru, latitude as lat, longitude as lon from locations where key is not null`)).rows as Place[];
  const places = new Map(placeRows.map((p) => [p.key, p]));
  const ids = async (where: ReturnType<typeof sql>) => ((await tx.execute(sql`select id from accounts where ${where} order by id`)).rows as { id: number }[]).map((r) => r.id);
  const owners = await ids(sql`is_owner and not is_employe`);
  const clients = await ids(sql`is_client and not is_owner`);
  const employees = await ids(sql`is_employe`);
  if (!owners.length || !employees.length || !places.size) return { objects: 0, photos: 0, links: 0, keys: 0 };
  const admin = (await tx.execute(sql`select id from users where 'admin' = any(roles) order by id limit 1`)).rows[0] as { id: number } | undefined;
  const by = admin?.id ?? null;

  const built = buildDemoObjects(clock, places, { owners: owners.length, clients: clients.length, employees: employees.length });
  built.sort((a, b) => a.created.getTime() - b.created.getTime());
  const rows = built.map((b) => ({
    ...b.row,
    created_on: b.created.toISOString(),
    modified_on: b.created.toISOString(),
    last_update: b.created.toISOString(),
    created_by: by,
    modified_by: by,
    created_by_account_id: employees[b.createdByEmployee],
  }));
  const cols = OBJECT_COLUMNS_SQL(rows);
  // Reference numbers come from the sequence in this order: older objects have smaller numbers.
  const inserted = (
    await tx.execute(sql`
      insert into objects (${sql.raw(cols.join(', '))})
      select ${sql.raw(cols.join(', '))} from jsonb_populate_recordset(null::objects, ${JSON.stringify(rows)}::jsonb) with ordinality as r
      order by r.ordinality
      returning id`)
  ).rows as { id: number }[];
  const objectIds = inserted.map((r) => r.id).sort((a, b) => a - b);

  const links: Row[] = [];
  built.forEach((b, i) => {
    const objectId = objectIds[i]!;
    links.push({ object_id: objectId, account_id: owners[b.owner], relation: 1, created_on: b.created.toISOString() });
    if (b.coOwner !== undefined && owners[b.coOwner] !== owners[b.owner]) {
      links.push({ object_id: objectId, account_id: owners[b.coOwner], relation: 2, created_on: b.created.toISOString() });
    }
    for (const t of b.tenants) {
      links.push({ object_id: objectId, account_id: clients[t.client], relation: t.relation, start_date: t.start, end_date: t.end, price: t.price, rent_payment_day: t.day, created_on: b.created.toISOString() });
    }
  });
  await tx.execute(sql`
    insert into object_accounts (object_id, account_id, relation, start_date, end_date, price, rent_payment_day, created_on)
    select object_id, account_id, relation, start_date, end_date, price, rent_payment_day, created_on
    from jsonb_populate_recordset(null::object_accounts, ${JSON.stringify(links)}::jsonb)
    on conflict do nothing`);

  const keys = built.flatMap((b, i) =>
    b.key
      ? [{ object_id: objectIds[i], account_id: employees[b.key.employee], received: b.key.received, given_away: b.key.givenAway, description: b.key.description, created_by: by, modified_by: by }]
      : [],
  );
  if (keys.length) {
    await tx.execute(sql`
      insert into object_keys (object_id, account_id, received, given_away, description, created_by, modified_by)
      select object_id, account_id, received, given_away, description, created_by, modified_by from jsonb_populate_recordset(null::object_keys, ${JSON.stringify(keys)}::jsonb)`);
    // Each key's history starts with its loan, as migration 0037 started it for the keys there.
    await tx.execute(sql`
      insert into object_key_loans (key_id, account_id, given_away, received, recorded_on, recorded_by)
      select k.id, k.account_id, k.given_away, case when k.received is not null and (k.given_away is null or k.received >= k.given_away) then k.received end, k.modified_on, k.modified_by
      from object_keys k
      where (k.account_id is not null or k.given_away is not null) and not exists (select 1 from object_key_loans l where l.key_id = k.id)
      order by k.id`);
  }

  // Photos: a few shared pictures, each photo row with its own stored names (linked, not copied).
  const pictures = await demoPhotos(path.join(opts.dataDir, 'demo-photos'));
  const byScene = new Map<Scene, DemoPhoto[]>();
  for (const p of pictures) byScene.set(p.scene, [...(byScene.get(p.scene) ?? []), p]);
  const storage = getFileStorage(opts.dataDir);
  const fileRows: Row[] = [];
  let turn = 0;
  for (const [i, b] of built.entries()) {
    for (const [order, scene] of b.photos.entries()) {
      const choices = byScene.get(scene)!;
      const pic = choices[(i + order + turn++) % choices.length]!;
      const stem = randomBytes(16).toString('hex');
      const names = { systemName: `${stem}.jpg`, thumbName: `${stem}-thumb.webp`, webName: `${stem}-web.webp` };
      await storage.putCopy(names.systemName, pic.original);
      await storage.putCopy(names.thumbName, pic.thumb);
      await storage.putCopy(names.webName, pic.web);
      fileRows.push({
        system_name: names.systemName,
        user_name: `${['IMG', 'DSC', 'P'][i % 3]}_${String(1000 + i * 7 + order).padStart(4, '0')}.jpg`,
        mime: 'image/jpeg',
        size: pic.size,
        parent_type: LinkKind.Object,
        parent_id: objectIds[i],
        type: 'image',
        sort_order: order,
        created_on: b.created.toISOString(),
        created_by: by,
        width: pic.width,
        height: pic.height,
        thumb_name: names.thumbName,
        web_name: names.webName,
      });
    }
  }
  if (fileRows.length) {
    await tx.execute(sql`
      insert into files (system_name, user_name, mime, size, parent_type, parent_id, type, sort_order, created_on, created_by, width, height, thumb_name, web_name)
      select system_name, user_name, mime, size, parent_type, parent_id, type, sort_order, created_on, created_by, width, height, thumb_name, web_name
      from jsonb_populate_recordset(null::files, ${JSON.stringify(fileRows)}::jsonb)`);
  }
  return { objects: objectIds.length, photos: fileRows.length, links: links.length, keys: keys.length };
}

/**
 * The approximate area of a property that hides its exact point: a circle that holds the point but
 * is not centred on it (as the editor draws one). Three draws of the generator, as before.
 */
function demoCircle(lat: number, lon: number, rng: Rng) {
  const draws = [rng.next(), rng.next()];
  const radius = rng.pick([300, 500, 800, 1000, 1500]);
  const centre = circleCentreAround(lat, lon, radius, () => draws.shift()!);
  return { map_circle_latitude: centre.latitude, map_circle_longitude: centre.longitude, map_circle_radius: radius };
}
