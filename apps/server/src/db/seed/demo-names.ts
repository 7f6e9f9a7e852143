/**
 * Name pools of the demo agency and of the large benchmark agency (scripts/generate-large.ts).
 * Greek surnames come in pairs, masculine and feminine form (Παπαδόπουλος / Παπαδοπούλου), each
 * with its Latin transliteration as a passport shows it.
 */

/** [masculine, feminine, masculine Latin, feminine Latin] */
export type SurnamePair = readonly [string, string, string, string];
/** [name, Latin] */
export type FirstName = readonly [string, string];

export const GREEK_SURNAMES: readonly SurnamePair[] = [
  ['Παπαδόπουλος', 'Παπαδοπούλου', 'Papadopoulos', 'Papadopoulou'],
  ['Καραγιάννης', 'Καραγιάννη', 'Karagiannis', 'Karagianni'],
  ['Νικολάου', 'Νικολάου', 'Nikolaou', 'Nikolaou'],
  ['Γεωργιάδης', 'Γεωργιάδου', 'Georgiadis', 'Georgiadou'],
  ['Παπαδάκης', 'Παπαδάκη', 'Papadakis', 'Papadaki'],
  ['Βασιλείου', 'Βασιλείου', 'Vasileiou', 'Vasileiou'],
  ['Ιωάννου', 'Ιωάννου', 'Ioannou', 'Ioannou'],
  ['Κωνσταντινίδης', 'Κωνσταντινίδου', 'Konstantinidis', 'Konstantinidou'],
  ['Δημητρίου', 'Δημητρίου', 'Dimitriou', 'Dimitriou'],
  ['Αθανασίου', 'Αθανασίου', 'Athanasiou', 'Athanasiou'],
  ['Οικονόμου', 'Οικονόμου', 'Oikonomou', 'Oikonomou'],
  ['Μακρής', 'Μακρή', 'Makris', 'Makri'],
  ['Παπανικολάου', 'Παπανικολάου', 'Papanikolaou', 'Papanikolaou'],
  ['Χατζηδάκης', 'Χατζηδάκη', 'Chatzidakis', 'Chatzidaki'],
  ['Θεοδωρίδης', 'Θεοδωρίδου', 'Theodoridis', 'Theodoridou'],
  ['Αλεξίου', 'Αλεξίου', 'Alexiou', 'Alexiou'],
  ['Σταματόπουλος', 'Σταματοπούλου', 'Stamatopoulos', 'Stamatopoulou'],
  ['Μιχαηλίδης', 'Μιχαηλίδου', 'Michailidis', 'Michailidou'],
  ['Τσολάκης', 'Τσολάκη', 'Tsolakis', 'Tsolaki'],
  ['Κουτσούρης', 'Κουτσούρη', 'Koutsouris', 'Koutsouri'],
  ['Ζαχαρίου', 'Ζαχαρίου', 'Zachariou', 'Zachariou'],
  ['Λαζαρίδης', 'Λαζαρίδου', 'Lazaridis', 'Lazaridou'],
  ['Πετρίδης', 'Πετρίδου', 'Petridis', 'Petridou'],
  ['Σαββίδης', 'Σαββίδου', 'Savvidis', 'Savvidou'],
  ['Χριστοδούλου', 'Χριστοδούλου', 'Christodoulou', 'Christodoulou'],
  ['Τσιρίδης', 'Τσιρίδου', 'Tsiridis', 'Tsiridou'],
  ['Αναστασιάδης', 'Αναστασιάδου', 'Anastasiadis', 'Anastasiadou'],
  ['Καλογεράκης', 'Καλογεράκη', 'Kalogerakis', 'Kalogeraki'],
  ['Μαυρίδης', 'Μαυρίδου', 'Mavridis', 'Mavridou'],
  ['Πολυχρονίου', 'Πολυχρονίου', 'Polychroniou', 'Polychroniou'],
  ['Ευαγγελόπουλος', 'Ευαγγελοπούλου', 'Evangelopoulos', 'Evangelopoulou'],
  ['Τριανταφυλλίδης', 'Τριανταφυλλίδου', 'Triantafyllidis', 'Triantafyllidou'],
  ['Ραφαηλίδης', 'Ραφαηλίδου', 'Rafailidis', 'Rafailidou'],
  ['Κυριακίδης', 'Κυριακίδου', 'Kyriakidis', 'Kyriakidou'],
  ['Παναγιωτόπουλος', 'Παναγιωτοπούλου', 'Panagiotopoulos', 'Panagiotopoulou'],
  ['Βλάχος', 'Βλάχου', 'Vlachos', 'Vlachou'],
  ['Μπαλτάς', 'Μπαλτά', 'Baltas', 'Balta'],
  ['Σιδηρόπουλος', 'Σιδηροπούλου', 'Sidiropoulos', 'Sidiropoulou'],
  ['Γκούμας', 'Γκούμα', 'Goumas', 'Gouma'],
  ['Φωτιάδης', 'Φωτιάδου', 'Fotiadis', 'Fotiadou'],
  ['Ξανθόπουλος', 'Ξανθοπούλου', 'Xanthopoulos', 'Xanthopoulou'],
  ['Τζιόλας', 'Τζιόλα', 'Tziolas', 'Tziola'],
  ['Χατζηγεωργίου', 'Χατζηγεωργίου', 'Chatzigeorgiou', 'Chatzigeorgiou'],
  ['Ιορδανίδης', 'Ιορδανίδου', 'Iordanidis', 'Iordanidou'],
  ['Κεχαγιάς', 'Κεχαγιά', 'Kechagias', 'Kechagia'],
  ['Μουρατίδης', 'Μουρατίδου', 'Mouratidis', 'Mouratidou'],
  ['Πασχαλίδης', 'Πασχαλίδου', 'Paschalidis', 'Paschalidou'],
  ['Στυλιανού', 'Στυλιανού', 'Stylianou', 'Stylianou'],
  ['Αργυρίου', 'Αργυρίου', 'Argyriou', 'Argyriou'],
  ['Τσακίρης', 'Τσακίρη', 'Tsakiris', 'Tsakiri'],
];

export const GREEK_MALE: readonly FirstName[] = [
  ['Γιώργος', 'Giorgos'], ['Δημήτρης', 'Dimitris'], ['Κωνσταντίνος', 'Konstantinos'], ['Νίκος', 'Nikos'],
  ['Γιάννης', 'Giannis'], ['Χρήστος', 'Christos'], ['Παναγιώτης', 'Panagiotis'], ['Βασίλης', 'Vasilis'],
  ['Αθανάσιος', 'Athanasios'], ['Μιχάλης', 'Michalis'], ['Ευάγγελος', 'Evangelos'], ['Σταύρος', 'Stavros'],
  ['Αλέξανδρος', 'Alexandros'], ['Θεόδωρος', 'Theodoros'], ['Στέλιος', 'Stelios'], ['Άγγελος', 'Angelos'],
  ['Ηλίας', 'Ilias'], ['Σωτήρης', 'Sotiris'], ['Απόστολος', 'Apostolos'], ['Λάζαρος', 'Lazaros'],
  ['Αντώνης', 'Antonis'], ['Πέτρος', 'Petros'],
];

export const GREEK_FEMALE: readonly FirstName[] = [
  ['Μαρία', 'Maria'], ['Ελένη', 'Eleni'], ['Αικατερίνη', 'Aikaterini'], ['Βασιλική', 'Vasiliki'],
  ['Σοφία', 'Sofia'], ['Αναστασία', 'Anastasia'], ['Δήμητρα', 'Dimitra'], ['Γεωργία', 'Georgia'],
  ['Ευαγγελία', 'Evangelia'], ['Χριστίνα', 'Christina'], ['Ιωάννα', 'Ioanna'], ['Κωνσταντίνα', 'Konstantina'],
  ['Παρασκευή', 'Paraskevi'], ['Αλεξάνδρα', 'Alexandra'], ['Δέσποινα', 'Despoina'], ['Θεοδώρα', 'Theodora'],
  ['Ζωή', 'Zoi'], ['Αγγελική', 'Angeliki'], ['Νίκη', 'Niki'], ['Φωτεινή', 'Foteini'], ['Στέλλα', 'Stella'],
  ['Ειρήνη', 'Eirini'],
];

export const RUSSIAN_SURNAMES: readonly SurnamePair[] = [
  ['Иванов', 'Иванова', 'Ivanov', 'Ivanova'],
  ['Смирнов', 'Смирнова', 'Smirnov', 'Smirnova'],
  ['Кузнецов', 'Кузнецова', 'Kuznetsov', 'Kuznetsova'],
  ['Попов', 'Попова', 'Popov', 'Popova'],
  ['Соколов', 'Соколова', 'Sokolov', 'Sokolova'],
  ['Лебедев', 'Лебедева', 'Lebedev', 'Lebedeva'],
  ['Козлов', 'Козлова', 'Kozlov', 'Kozlova'],
  ['Новиков', 'Новикова', 'Novikov', 'Novikova'],
  ['Морозов', 'Морозова', 'Morozov', 'Morozova'],
  ['Петров', 'Петрова', 'Petrov', 'Petrova'],
  ['Волков', 'Волкова', 'Volkov', 'Volkova'],
  ['Соловьёв', 'Соловьёва', 'Solovyov', 'Solovyova'],
  ['Васильев', 'Васильева', 'Vasilyev', 'Vasilyeva'],
  ['Зайцев', 'Зайцева', 'Zaytsev', 'Zaytseva'],
  ['Павлов', 'Павлова', 'Pavlov', 'Pavlova'],
  ['Семёнов', 'Семёнова', 'Semyonov', 'Semyonova'],
  ['Виноградов', 'Виноградова', 'Vinogradov', 'Vinogradova'],
  ['Богданов', 'Богданова', 'Bogdanov', 'Bogdanova'],
  ['Фёдоров', 'Фёдорова', 'Fedorov', 'Fedorova'],
  ['Михайлов', 'Михайлова', 'Mikhaylov', 'Mikhaylova'],
  ['Тарасов', 'Тарасова', 'Tarasov', 'Tarasova'],
  ['Орлов', 'Орлова', 'Orlov', 'Orlova'],
  ['Макаров', 'Макарова', 'Makarov', 'Makarova'],
  ['Андреев', 'Андреева', 'Andreev', 'Andreeva'],
];

export const RUSSIAN_MALE: readonly FirstName[] = [
  ['Сергей', 'Sergey'], ['Алексей', 'Aleksey'], ['Андрей', 'Andrey'], ['Дмитрий', 'Dmitry'], ['Михаил', 'Mikhail'],
  ['Иван', 'Ivan'], ['Николай', 'Nikolay'], ['Владимир', 'Vladimir'], ['Павел', 'Pavel'], ['Артём', 'Artyom'],
  ['Максим', 'Maksim'], ['Евгений', 'Evgeny'], ['Игорь', 'Igor'], ['Олег', 'Oleg'],
];

export const RUSSIAN_FEMALE: readonly FirstName[] = [
  ['Анна', 'Anna'], ['Елена', 'Elena'], ['Ольга', 'Olga'], ['Наталья', 'Natalya'], ['Татьяна', 'Tatyana'],
  ['Мария', 'Maria'], ['Ирина', 'Irina'], ['Светлана', 'Svetlana'], ['Екатерина', 'Ekaterina'], ['Юлия', 'Yulia'],
  ['Анастасия', 'Anastasia'], ['Марина', 'Marina'],
];

/** Patronymics: [masculine, feminine, masculine Latin, feminine Latin]. */
export const RUSSIAN_PATRONYMICS: readonly SurnamePair[] = [
  ['Сергеевич', 'Сергеевна', 'Sergeevich', 'Sergeevna'],
  ['Александрович', 'Александровна', 'Aleksandrovich', 'Aleksandrovna'],
  ['Викторович', 'Викторовна', 'Viktorovich', 'Viktorovna'],
  ['Николаевич', 'Николаевна', 'Nikolaevich', 'Nikolaevna'],
  ['Владимирович', 'Владимировна', 'Vladimirovich', 'Vladimirovna'],
  ['Андреевич', 'Андреевна', 'Andreevich', 'Andreevna'],
];

export const BULGARIAN_SURNAMES: readonly SurnamePair[] = [
  ['Георгиев', 'Георгиева', 'Georgiev', 'Georgieva'],
  ['Димитров', 'Димитрова', 'Dimitrov', 'Dimitrova'],
  ['Николов', 'Николова', 'Nikolov', 'Nikolova'],
  ['Стоянов', 'Стоянова', 'Stoyanov', 'Stoyanova'],
  ['Тодоров', 'Тодорова', 'Todorov', 'Todorova'],
  ['Христов', 'Христова', 'Hristov', 'Hristova'],
  ['Илиев', 'Илиева', 'Iliev', 'Ilieva'],
];
export const BULGARIAN_MALE: readonly FirstName[] = [
  ['Георги', 'Georgi'], ['Димитър', 'Dimitar'], ['Стоян', 'Stoyan'], ['Петър', 'Petar'], ['Иван', 'Ivan'],
];
export const BULGARIAN_FEMALE: readonly FirstName[] = [
  ['Гергана', 'Gergana'], ['Веселина', 'Veselina'], ['Цветелина', 'Tsvetelina'], ['Мария', 'Maria'], ['Десислава', 'Desislava'],
];

export const ENGLISH_SURNAMES = ['Smith', 'Taylor', 'Brown', 'Wilson', 'Evans', 'Johnson', 'Walker', 'Wright', 'Robinson', 'Clarke', 'Hughes', 'Turner'] as const;
export const ENGLISH_MALE = ['James', 'Oliver', 'Thomas', 'William', 'Daniel', 'Michael', 'David', 'Richard'] as const;
export const ENGLISH_FEMALE = ['Emma', 'Sarah', 'Charlotte', 'Emily', 'Lucy', 'Hannah', 'Rachel', 'Helen'] as const;

export const GERMAN_SURNAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Hoffmann', 'Schäfer', 'Koch', 'Richter'] as const;
export const GERMAN_MALE = ['Thomas', 'Andreas', 'Stefan', 'Markus', 'Jürgen', 'Klaus', 'Matthias', 'Frank'] as const;
export const GERMAN_FEMALE = ['Sabine', 'Petra', 'Claudia', 'Anja', 'Katrin', 'Julia', 'Birgit', 'Monika'] as const;

/** Places around Thessaloniki: [city, postcodes]. Weighted towards the city itself. */
export const GREEK_PLACES: readonly (readonly [string, readonly string[]])[] = [
  ['Θεσσαλονίκη', ['54621', '54622', '54623', '54624', '54625', '54631', '54635', '54636', '54638', '54639', '54640', '54641', '54642', '54643', '54644', '54645', '54646', '54648', '54649', '54655']],
  ['Θεσσαλονίκη', ['54621', '54623', '54624', '54631', '54636', '54640', '54642', '54646']],
  ['Καλαμαριά', ['55131', '55132', '55133', '55134', '55135', '55136']],
  ['Καλαμαριά', ['55131', '55132', '55133', '55134']],
  ['Πυλαία', ['55535']],
  ['Πανόραμα', ['55236']],
  ['Θέρμη', ['57001']],
  ['Περαία', ['57019']],
  ['Νέοι Επιβάτες', ['57019']],
  ['Νέα Μηχανιώνα', ['63055']],
  ['Επανομή', ['57500']],
  ['Ωραιόκαστρο', ['57013']],
  ['Εύοσμος', ['56224']],
  ['Σταυρούπολη', ['56430']],
  ['Αμπελόκηποι', ['56121']],
  ['Πολίχνη', ['56533']],
  ['Νέα Μουδανιά, Χαλκιδική', ['63200']],
  ['Κασσάνδρεια, Χαλκιδική', ['63077']],
  ['Πευκοχώρι, Χαλκιδική', ['63085']],
  ['Νικήτη, Χαλκιδική', ['63088']],
  ['Νέα Καλλικράτεια, Χαλκιδική', ['63080']],
];

export const GREEK_STREETS = [
  'Εγνατίας', 'Τσιμισκή', 'Βασιλίσσης Όλγας', 'Μητροπόλεως', 'Αγίας Σοφίας', 'Δελφών', 'Κωνσταντίνου Καραμανλή',
  'Εθνικής Αντιστάσεως', 'Κομνηνών', 'Πόντου', 'Μεταμορφώσεως', 'Αγίου Δημητρίου', 'Παπαναστασίου', 'Βούλγαρη',
  'Καρακάση', 'Μαρασλή', 'Γεωργίου Παπανδρέου', 'Ερμού', 'Πλαστήρα', 'Αριστοτέλους', 'Κλεάνθους', 'Αλεξάνδρου Σβώλου',
  '25ης Μαρτίου', 'Ανδρέα Παπανδρέου', 'Μεγάλου Αλεξάνδρου', 'Ικάρων', 'Θεαγένους Χαρίση', 'Ιασονίδου',
] as const;

/** Latin spelling for e-mail addresses: ä → ae, ö → oe, ü → ue, ß → ss, other accents dropped. */
export function toMailPart(s: string): string {
  return s
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '');
}

/** A Greek tax number (ΑΦΜ, 9 digits) whose check digit is right. */
export function makeAfm(digits8: string): string {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(digits8[i]) * 2 ** (8 - i);
  return `${digits8}${(sum % 11) % 10}`;
}
