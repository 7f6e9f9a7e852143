/**
 * The places the agency works in: prefecture → municipality (the 2011 "Kallikratis" municipalities)
 * → area, neighbourhood or village, with their Greek, English and Russian names and approximate
 * coordinates (WGS84). The key of each place is stable: the seed updates a place by its key, so a
 * corrected name or coordinate reaches every database on its next start and ids never change.
 */
export type PlaceSeed = {
  key: string;
  el: string;
  en: string;
  ru: string;
  lat: number;
  lon: number;
  children?: PlaceSeed[];
};

type Row = [key: string, el: string, en: string, ru: string, lat: number, lon: number];
const place = ([key, el, en, ru, lat, lon]: Row, children?: Row[]): PlaceSeed => ({
  key,
  el,
  en,
  ru,
  lat,
  lon,
  ...(children ? { children: children.map((c) => place(c)) } : {}),
});

export const PLACES: PlaceSeed[] = [
  {
    ...place(['thessaloniki', 'Θεσσαλονίκη', 'Thessaloniki', 'Салоники', 40.6403, 22.9439]),
    children: [
      place(['thessaloniki.thessaloniki', 'Θεσσαλονίκη', 'Thessaloniki', 'Салоники', 40.6401, 22.9444], [
        ['thessaloniki.thessaloniki.centre', 'Κέντρο', 'Centre', 'Центр', 40.6364, 22.9418],
        ['thessaloniki.thessaloniki.aristotelous', 'Πλατεία Αριστοτέλους', 'Aristotelous Square', 'Площадь Аристотеля', 40.6326, 22.9408],
        ['thessaloniki.thessaloniki.ladadika', 'Λαδάδικα', 'Ladadika', 'Лададика', 40.6357, 22.9366],
        ['thessaloniki.thessaloniki.vardaris', 'Βαρδάρης', 'Vardaris', 'Вардарис', 40.6414, 22.9286],
        ['thessaloniki.thessaloniki.xirokrini', 'Ξηροκρήνη', 'Xirokrini', 'Ксирокрини', 40.6478, 22.9295],
        ['thessaloniki.thessaloniki.ano-poli', 'Άνω Πόλη', 'Ano Poli', 'Ано Поли', 40.6433, 22.9561],
        ['thessaloniki.thessaloniki.agia-sofia', 'Αγία Σοφία', 'Agia Sofia', 'Агия София', 40.6329, 22.9470],
        ['thessaloniki.thessaloniki.rotonda', 'Ροτόντα', 'Rotonda', 'Ротонда', 40.6332, 22.9528],
        ['thessaloniki.thessaloniki.ippodromio', 'Ιπποδρόμιο', 'Ippodromio', 'Ипподромио', 40.6345, 22.9478],
        ['thessaloniki.thessaloniki.nea-paralia', 'Νέα Παραλία', 'Nea Paralia (New Waterfront)', 'Новая набережная', 40.6215, 22.9505],
        ['thessaloniki.thessaloniki.saranta-ekklisies', 'Σαράντα Εκκλησιές', 'Saranta Ekklisies', 'Саранта Эклисьес', 40.6305, 22.9700],
        ['thessaloniki.thessaloniki.triandria', 'Τριανδρία', 'Triandria', 'Триандрия', 40.6170, 22.9760],
        ['thessaloniki.thessaloniki.toumba', 'Τούμπα', 'Toumba', 'Тумба', 40.6108, 22.9717],
        ['thessaloniki.thessaloniki.kato-toumba', 'Κάτω Τούμπα', 'Kato Toumba', 'Като Тумба', 40.6045, 22.9665],
        ['thessaloniki.thessaloniki.charilaou', 'Χαριλάου', 'Charilaou', 'Харилау', 40.6024, 22.9736],
        ['thessaloniki.thessaloniki.analipsi', 'Ανάληψη', 'Analipsi', 'Аналипси', 40.6036, 22.9572],
        ['thessaloniki.thessaloniki.faliro', 'Φάληρο', 'Faliro', 'Фалиро', 40.6060, 22.9535],
        ['thessaloniki.thessaloniki.botsari', 'Μπότσαρη', 'Botsari', 'Боцари', 40.6075, 22.9625],
        ['thessaloniki.thessaloniki.martiou', 'Μαρτίου', 'Martiou', 'Мартиу', 40.5985, 22.9610],
        ['thessaloniki.thessaloniki.depo', 'Ντεπώ', 'Depo', 'Депо', 40.5930, 22.9636],
      ]),
      place(['thessaloniki.kalamaria', 'Καλαμαριά', 'Kalamaria', 'Каламария', 40.5825, 22.9503], [
        ['thessaloniki.kalamaria.kalamaria', 'Καλαμαριά', 'Kalamaria', 'Каламария', 40.5825, 22.9503],
        ['thessaloniki.kalamaria.karabournaki', 'Καραμπουρνάκι', 'Karabournaki', 'Карабурнаки', 40.5862, 22.9432],
        ['thessaloniki.kalamaria.aretsou', 'Αρετσού', 'Aretsou', 'Арецу', 40.5795, 22.9530],
        ['thessaloniki.kalamaria.kifisia', 'Κηφισιά', 'Kifisia', 'Кифисья', 40.5918, 22.9588],
        ['thessaloniki.kalamaria.vyzantio', 'Βυζάντιο', 'Vyzantio', 'Византио', 40.5872, 22.9612],
        ['thessaloniki.kalamaria.nea-krini', 'Νέα Κρήνη', 'Nea Krini', 'Неа Крини', 40.5728, 22.9498],
        ['thessaloniki.kalamaria.foinikas', 'Φοίνικας', 'Foinikas', 'Финикас', 40.5722, 22.9652],
      ]),
      place(['thessaloniki.pylaia-chortiatis', 'Πυλαία-Χορτιάτης', 'Pylaia-Chortiatis', 'Пилея-Хортиатис', 40.6000, 23.0170], [
        ['thessaloniki.pylaia-chortiatis.pylaia', 'Πυλαία', 'Pylaia', 'Пилея', 40.6000, 22.9900],
        ['thessaloniki.pylaia-chortiatis.panorama', 'Πανόραμα', 'Panorama', 'Панорама', 40.5880, 23.0310],
        ['thessaloniki.pylaia-chortiatis.chortiatis', 'Χορτιάτης', 'Chortiatis', 'Хортиатис', 40.5990, 23.1000],
        ['thessaloniki.pylaia-chortiatis.asvestochori', 'Ασβεστοχώρι', 'Asvestochori', 'Асвестохори', 40.6440, 23.0280],
        ['thessaloniki.pylaia-chortiatis.exochi', 'Εξοχή', 'Exochi', 'Эксохи', 40.6540, 23.0520],
        ['thessaloniki.pylaia-chortiatis.filyro', 'Φίλυρο', 'Filyro', 'Филиро', 40.6880, 23.0040],
      ]),
      place(['thessaloniki.thermi', 'Θέρμη', 'Thermi', 'Терми', 40.5470, 23.0190], [
        ['thessaloniki.thermi.thermi', 'Θέρμη', 'Thermi', 'Терми', 40.5470, 23.0190],
        ['thessaloniki.thermi.neo-rysio', 'Νέο Ρύσιο', 'Neo Rysio', 'Нео Рисио', 40.5330, 22.9910],
        ['thessaloniki.thermi.nea-raidestos', 'Νέα Ραιδεστός', 'Nea Raidestos', 'Неа Редестос', 40.5480, 23.0500],
        ['thessaloniki.thermi.tagarades', 'Ταγαράδες', 'Tagarades', 'Тагарадес', 40.5280, 23.0220],
        ['thessaloniki.thermi.trilofo', 'Τρίλοφο', 'Trilofo', 'Трилофо', 40.4860, 23.0100],
        ['thessaloniki.thermi.plagiari', 'Πλαγιάρι', 'Plagiari', 'Плагиари', 40.4770, 22.9640],
        ['thessaloniki.thermi.kardia', 'Καρδία', 'Kardia', 'Кардия', 40.4790, 22.9900],
        ['thessaloniki.thermi.kato-scholari', 'Κάτω Σχολάρι', 'Kato Scholari', 'Като Схолари', 40.4970, 23.0710],
        ['thessaloniki.thermi.vasilika', 'Βασιλικά', 'Vasilika', 'Василика', 40.4770, 23.1370],
      ]),
      place(['thessaloniki.neapoli-sykies', 'Νεάπολη-Συκιές', 'Neapoli-Sykies', 'Неаполи-Сикьес', 40.6520, 22.9660], [
        ['thessaloniki.neapoli-sykies.neapoli', 'Νεάπολη', 'Neapoli', 'Неаполи', 40.6540, 22.9420],
        ['thessaloniki.neapoli-sykies.sykies', 'Συκιές', 'Sykies', 'Сикьес', 40.6490, 22.9520],
        ['thessaloniki.neapoli-sykies.agios-pavlos', 'Άγιος Παύλος', 'Agios Pavlos', 'Агиос Павлос', 40.6330, 22.9700],
        ['thessaloniki.neapoli-sykies.pefka', 'Πεύκα', 'Pefka', 'Пефка', 40.6610, 22.9960],
      ]),
      place(['thessaloniki.pavlos-melas', 'Παύλος Μελάς', 'Pavlos Melas', 'Павлос Мелас', 40.6680, 22.9350], [
        ['thessaloniki.pavlos-melas.stavroupoli', 'Σταυρούπολη', 'Stavroupoli', 'Ставруполи', 40.6660, 22.9350],
        ['thessaloniki.pavlos-melas.polichni', 'Πολίχνη', 'Polichni', 'Полихни', 40.6660, 22.9480],
        ['thessaloniki.pavlos-melas.efkarpia', 'Ευκαρπία', 'Efkarpia', 'Эфкарпия', 40.6800, 22.9520],
      ]),
      place(['thessaloniki.kordelio-evosmos', 'Κορδελιό-Εύοσμος', 'Kordelio-Evosmos', 'Корделио-Эвосмос', 40.6670, 22.9100], [
        ['thessaloniki.kordelio-evosmos.evosmos', 'Εύοσμος', 'Evosmos', 'Эвосмос', 40.6700, 22.9100],
        ['thessaloniki.kordelio-evosmos.kordelio', 'Κορδελιό', 'Kordelio', 'Корделио', 40.6670, 22.8920],
      ]),
      place(['thessaloniki.ampelokipoi-menemeni', 'Αμπελόκηποι-Μενεμένη', 'Ampelokipoi-Menemeni', 'Ампелокипи-Менемени', 40.6530, 22.9120], [
        ['thessaloniki.ampelokipoi-menemeni.ampelokipoi', 'Αμπελόκηποι', 'Ampelokipoi', 'Ампелокипи', 40.6550, 22.9200],
        ['thessaloniki.ampelokipoi-menemeni.menemeni', 'Μενεμένη', 'Menemeni', 'Менемени', 40.6580, 22.9000],
      ]),
      place(['thessaloniki.oraiokastro', 'Ωραιόκαστρο', 'Oraiokastro', 'Ореокастро', 40.7300, 22.9180]),
      place(['thessaloniki.thermaikos', 'Θερμαϊκός', 'Thermaikos', 'Термаикос', 40.5000, 22.9000], [
        ['thessaloniki.thermaikos.perea', 'Περαία', 'Perea', 'Перея', 40.4990, 22.9270],
        ['thessaloniki.thermaikos.neoi-epivates', 'Νέοι Επιβάτες', 'Neoi Epivates', 'Нии Эпиватес', 40.5030, 22.9100],
        ['thessaloniki.thermaikos.agia-triada', 'Αγία Τριάδα', 'Agia Triada', 'Агия Триада', 40.5000, 22.8800],
        ['thessaloniki.thermaikos.nea-michaniona', 'Νέα Μηχανιώνα', 'Nea Michaniona', 'Неа Миханиона', 40.4670, 22.8620],
        ['thessaloniki.thermaikos.angelochori', 'Αγγελοχώρι', 'Angelochori', 'Ангелохори', 40.4900, 22.8200],
        ['thessaloniki.thermaikos.epanomi', 'Επανομή', 'Epanomi', 'Эпаноми', 40.4270, 22.9310],
      ]),
      place(['thessaloniki.delta', 'Δέλτα', 'Delta', 'Дельта', 40.6600, 22.7900], [
        ['thessaloniki.delta.sindos', 'Σίνδος', 'Sindos', 'Синдос', 40.6700, 22.8040],
        ['thessaloniki.delta.kalochori', 'Καλοχώρι', 'Kalochori', 'Калохори', 40.6440, 22.8650],
        ['thessaloniki.delta.chalastra', 'Χαλάστρα', 'Chalastra', 'Халастра', 40.6270, 22.7290],
      ]),
      place(['thessaloniki.chalkidona', 'Χαλκηδόνα', 'Chalkidona', 'Халкидона', 40.7320, 22.6100], [
        ['thessaloniki.chalkidona.chalkidona', 'Χαλκηδόνα', 'Chalkidona', 'Халкидона', 40.7320, 22.6100],
        ['thessaloniki.chalkidona.koufalia', 'Κουφάλια', 'Koufalia', 'Куфалия', 40.7800, 22.5800],
      ]),
      place(['thessaloniki.lagkadas', 'Λαγκαδάς', 'Lagkadas', 'Лангадас', 40.7500, 23.0700], [
        ['thessaloniki.lagkadas.lagkadas', 'Λαγκαδάς', 'Lagkadas', 'Лангадас', 40.7500, 23.0700],
        ['thessaloniki.lagkadas.assiros', 'Άσσηρος', 'Assiros', 'Ассирос', 40.8190, 23.0330],
        ['thessaloniki.lagkadas.sochos', 'Σοχός', 'Sochos', 'Сохос', 40.8170, 23.3540],
        ['thessaloniki.lagkadas.lagkadikia', 'Λαγκαδίκια', 'Lagkadikia', 'Лангадикия', 40.7150, 23.2070],
      ]),
      place(['thessaloniki.volvi', 'Βόλβη', 'Volvi', 'Волви', 40.6700, 23.5000], [
        ['thessaloniki.volvi.asprovalta', 'Ασπροβάλτα', 'Asprovalta', 'Аспровалта', 40.7240, 23.7100],
        ['thessaloniki.volvi.nea-vrasna', 'Νέα Βρασνά', 'Nea Vrasna', 'Неа Врасна', 40.7050, 23.6850],
        ['thessaloniki.volvi.stavros', 'Σταυρός', 'Stavros', 'Ставрос', 40.6620, 23.6960],
        ['thessaloniki.volvi.nea-apollonia', 'Νέα Απολλωνία', 'Nea Apollonia', 'Неа Аполлония', 40.6230, 23.4400],
      ]),
    ],
  },
  {
    ...place(['chalkidiki', 'Χαλκιδική', 'Chalkidiki', 'Халкидики', 40.3700, 23.4500]),
    children: [
      place(['chalkidiki.nea-propontida', 'Νέα Προποντίδα', 'Nea Propontida', 'Неа Пропонтида', 40.2410, 23.2830], [
        ['chalkidiki.nea-propontida.nea-moudania', 'Νέα Μουδανιά', 'Nea Moudania', 'Неа Мудания', 40.2410, 23.2830],
        ['chalkidiki.nea-propontida.nea-kallikrateia', 'Νέα Καλλικράτεια', 'Nea Kallikrateia', 'Неа Калликратия', 40.3130, 23.0630],
        ['chalkidiki.nea-propontida.nea-plagia', 'Νέα Πλάγια', 'Nea Plagia', 'Неа Плагия', 40.2700, 23.2030],
        ['chalkidiki.nea-propontida.nea-triglia', 'Νέα Τρίγλια', 'Nea Triglia', 'Неа Триглия', 40.3000, 23.2120],
        ['chalkidiki.nea-propontida.flogita', 'Φλογητά', 'Flogita', 'Флогита', 40.2560, 23.2380],
        ['chalkidiki.nea-propontida.nea-potidea', 'Νέα Ποτίδαια', 'Nea Potidea', 'Неа Потидея', 40.1950, 23.3280],
      ]),
      place(['chalkidiki.kassandra', 'Κασσάνδρα', 'Kassandra', 'Кассандра', 40.0470, 23.4130], [
        ['chalkidiki.kassandra.kassandreia', 'Κασσάνδρεια', 'Kassandreia', 'Кассандрия', 40.0470, 23.4130],
        ['chalkidiki.kassandra.nea-fokea', 'Νέα Φώκαια', 'Nea Fokea', 'Неа Фокея', 40.1330, 23.4000],
        ['chalkidiki.kassandra.sani', 'Σάνη', 'Sani', 'Сани', 40.1000, 23.3100],
        ['chalkidiki.kassandra.afytos', 'Άφυτος', 'Afytos', 'Афитос', 40.0980, 23.4360],
        ['chalkidiki.kassandra.kallithea', 'Καλλιθέα', 'Kallithea', 'Каллифея', 40.0780, 23.4470],
        ['chalkidiki.kassandra.kryopigi', 'Κρυοπηγή', 'Kryopigi', 'Криопиги', 40.0530, 23.4880],
        ['chalkidiki.kassandra.siviri', 'Σίβηρη', 'Siviri', 'Сивири', 40.0380, 23.3470],
        ['chalkidiki.kassandra.fourka', 'Φούρκα', 'Fourka', 'Фурка', 40.0200, 23.4040],
        ['chalkidiki.kassandra.polychrono', 'Πολύχρονο', 'Polychrono', 'Полихроно', 39.9990, 23.5310],
        ['chalkidiki.kassandra.chaniotis', 'Χανιώτη', 'Chaniotis', 'Ханиоти', 40.0060, 23.5760],
        ['chalkidiki.kassandra.pefkochori', 'Πευκοχώρι', 'Pefkochori', 'Пефкохори', 39.9870, 23.6130],
        ['chalkidiki.kassandra.paliouri', 'Παλιούρι', 'Paliouri', 'Палиури', 39.9240, 23.6670],
        ['chalkidiki.kassandra.nea-skioni', 'Νέα Σκιώνη', 'Nea Skioni', 'Неа Скиони', 39.9440, 23.5370],
        ['chalkidiki.kassandra.posidi', 'Ποσείδι', 'Posidi', 'Посиди', 39.9650, 23.3700],
      ]),
      place(['chalkidiki.sithonia', 'Σιθωνία', 'Sithonia', 'Ситония', 40.2220, 23.6660], [
        ['chalkidiki.sithonia.nikiti', 'Νικήτη', 'Nikiti', 'Никити', 40.2220, 23.6660],
        ['chalkidiki.sithonia.agios-nikolaos', 'Άγιος Νικόλαος', 'Agios Nikolaos', 'Агиос Николаос', 40.2480, 23.6800],
        ['chalkidiki.sithonia.vourvourou', 'Βουρβουρού', 'Vourvourou', 'Вурвуру', 40.1910, 23.7920],
        ['chalkidiki.sithonia.neos-marmaras', 'Νέος Μαρμαράς', 'Neos Marmaras', 'Неос Мармарас', 40.0970, 23.7830],
        ['chalkidiki.sithonia.porto-carras', 'Πόρτο Καρράς', 'Porto Carras', 'Порто Каррас', 40.0830, 23.7890],
        ['chalkidiki.sithonia.toroni', 'Τορώνη', 'Toroni', 'Торони', 39.9780, 23.8820],
        ['chalkidiki.sithonia.porto-koufo', 'Πόρτο Κουφό', 'Porto Koufo', 'Порто Куфо', 39.9650, 23.9170],
        ['chalkidiki.sithonia.kalamitsi', 'Καλαμίτσι', 'Kalamitsi', 'Каламици', 39.9850, 23.9930],
        ['chalkidiki.sithonia.sykia', 'Συκιά', 'Sykia', 'Сикья', 40.0380, 23.9420],
        ['chalkidiki.sithonia.sarti', 'Σάρτη', 'Sarti', 'Сарти', 40.0880, 23.9800],
      ]),
      place(['chalkidiki.polygyros', 'Πολύγυρος', 'Polygyros', 'Полигирос', 40.3780, 23.4430], [
        ['chalkidiki.polygyros.polygyros', 'Πολύγυρος', 'Polygyros', 'Полигирос', 40.3780, 23.4430],
        ['chalkidiki.polygyros.taxiarchis', 'Ταξιάρχης', 'Taxiarchis', 'Таксиархис', 40.4260, 23.5000],
        ['chalkidiki.polygyros.gerakini', 'Γερακινή', 'Gerakini', 'Геракини', 40.2740, 23.4610],
        ['chalkidiki.polygyros.psakoudia', 'Ψακούδια', 'Psakoudia', 'Псакудья', 40.2600, 23.5130],
        ['chalkidiki.polygyros.ormylia', 'Ορμύλια', 'Ormylia', 'Ормилия', 40.2940, 23.5460],
      ]),
      place(['chalkidiki.aristotelis', 'Αριστοτέλης', 'Aristotelis', 'Аристотелис', 40.3970, 23.8770], [
        ['chalkidiki.aristotelis.ierissos', 'Ιερισσός', 'Ierissos', 'Иериссос', 40.3970, 23.8770],
        ['chalkidiki.aristotelis.nea-roda', 'Νέα Ρόδα', 'Nea Roda', 'Неа Рода', 40.3790, 23.9300],
        ['chalkidiki.aristotelis.trypiti', 'Τρυπητή', 'Trypiti', 'Трипити', 40.3710, 23.9140],
        ['chalkidiki.aristotelis.ouranoupoli', 'Ουρανούπολη', 'Ouranoupoli', 'Уранополис', 40.3270, 23.9830],
        ['chalkidiki.aristotelis.ammouliani', 'Αμμουλιανή', 'Ammouliani', 'Аммульяни', 40.3340, 23.9200],
        ['chalkidiki.aristotelis.olympiada', 'Ολυμπιάδα', 'Olympiada', 'Олимпиада', 40.5880, 23.7900],
        ['chalkidiki.aristotelis.stageira', 'Στάγειρα', 'Stageira', 'Стагира', 40.5220, 23.7470],
        ['chalkidiki.aristotelis.arnaia', 'Αρναία', 'Arnaia', 'Арнея', 40.4870, 23.5950],
      ]),
    ],
  },
];

/** The places offered first when the agency has no objects yet (the busiest markets). */
export const MAIN_PLACE_KEYS = [
  'thessaloniki.thessaloniki',
  'thessaloniki.kalamaria',
  'thessaloniki.pylaia-chortiatis',
  'thessaloniki.thermi',
  'thessaloniki.thermaikos',
  'thessaloniki.neapoli-sykies',
  'chalkidiki.kassandra',
  'chalkidiki.sithonia',
  'chalkidiki.nea-propontida',
  'chalkidiki.polygyros',
];
