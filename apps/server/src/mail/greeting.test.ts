import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { greetingLine, greekGender, greekVocative, guessLanguage } from './greeting.ts';

/** The mail texts of a language, with {{name}} filled in as the translator fills it. */
const texts = (lang: string) => JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, `../db/seed/locales/mail.${lang}.json`), 'utf8')) as Record<string, string>;
const tOf = (lang: string) => {
  const all = texts(lang);
  return (key: string, params: Record<string, string | number> = {}) => all[key]!.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String(params[k]));
};
const el = tOf('el');
const ru = tOf('ru');
const en = tOf('en');

/** The 100 most common Greek male first names (formal and everyday forms) and their vocatives. */
const MALE = `
Γιώργος Γιώργο · Γεώργιος Γεώργιε · Δημήτρης Δημήτρη · Δημήτριος Δημήτριε · Ιωάννης Ιωάννη · Γιάννης Γιάννη · Κωνσταντίνος Κωνσταντίνε
Κώστας Κώστα · Νικόλαος Νικόλαε · Νίκος Νίκο · Παναγιώτης Παναγιώτη · Βασίλειος Βασίλειε · Βασίλης Βασίλη · Χρήστος Χρήστο
Αθανάσιος Αθανάσιε · Θανάσης Θανάση · Μιχαήλ Μιχαήλ · Μιχάλης Μιχάλη · Ευάγγελος Ευάγγελε · Βαγγέλης Βαγγέλη · Σπυρίδων Σπυρίδων
Σπύρος Σπύρο · Αντώνιος Αντώνιε · Αντώνης Αντώνη · Αναστάσιος Αναστάσιε · Τάσος Τάσο · Θεόδωρος Θεόδωρε · Άγγελος Άγγελε
Στέφανος Στέφανε · Αλέξανδρος Αλέξανδρε · Εμμανουήλ Εμμανουήλ · Μανώλης Μανώλη · Πέτρος Πέτρο · Μάρκος Μάρκο · Παύλος Παύλο
Σταύρος Σταύρο · Ηλίας Ηλία · Ανδρέας Ανδρέα · Χαράλαμπος Χαράλαμπε · Μπάμπης Μπάμπη · Σωτήριος Σωτήριε · Σωτήρης Σωτήρη
Απόστολος Απόστολε · Λάμπρος Λάμπρο · Φώτιος Φώτιε · Φώτης Φώτη · Θωμάς Θωμά · Λουκάς Λουκά · Στυλιανός Στυλιανέ
Στέλιος Στέλιο · Κυριάκος Κυριάκο · Ευστάθιος Ευστάθιε · Ευθύμιος Ευθύμιε · Γρηγόριος Γρηγόριε · Γρηγόρης Γρηγόρη · Ιωσήφ Ιωσήφ
Δανιήλ Δανιήλ · Ξενοφών Ξενοφών · Αριστείδης Αριστείδη · Μιλτιάδης Μιλτιάδη · Ορέστης Ορέστη · Άρης Άρη · Θεοφάνης Θεοφάνη
Φίλιππος Φίλιππε · Πρόδρομος Πρόδρομε · Χριστόφορος Χριστόφορε · Τιμόθεος Τιμόθεε · Ματθαίος Ματθαίε · Νεκτάριος Νεκτάριε · Λευτέρης Λευτέρη
Ελευθέριος Ελευθέριε · Σταμάτης Σταμάτη · Αριστοτέλης Αριστοτέλη · Σωκράτης Σωκράτη · Γεράσιμος Γεράσιμε · Διονύσιος Διονύσιε · Διονύσης Διονύση
Θεμιστοκλής Θεμιστοκλή · Δήμος Δήμο · Στάθης Στάθη · Λάζαρος Λάζαρε · Φραγκίσκος Φραγκίσκε · Αργύρης Αργύρη
Ευγένιος Ευγένιε · Ιάσων Ιάσων · Αλέξης Αλέξη
Οδυσσέας Οδυσσέα · Δαμιανός Δαμιανέ · Χαρίλαος Χαρίλαε · Μενέλαος Μενέλαε · Παντελής Παντελή
Περικλής Περικλή · Ηρακλής Ηρακλή · Αχιλλέας Αχιλλέα · Ζαχαρίας Ζαχαρία · Λεωνίδας Λεωνίδα · Σάββας Σάββα · Μηνάς Μηνά
Παρασκευάς Παρασκευά · Ιάκωβος Ιάκωβε`;

/** The 100 most common Greek female first names: their vocative is the name itself. */
const FEMALE = `
Μαρία Ελένη Αικατερίνη Κατερίνα Βασιλική Σοφία Αγγελική Γεωργία Δήμητρα Ευαγγελία Κωνσταντίνα Ιωάννα Παναγιώτα Χριστίνα Ειρήνη
Αναστασία Δέσποινα Παρασκευή Ευτυχία Χρυσούλα Αθανασία Ζωή Άννα Θεοδώρα Σταυρούλα Φωτεινή Αλεξάνδρα Νικολέτα Αντωνία Ευγενία
Κυριακή Μαργαρίτα Στυλιανή Ευδοκία Αφροδίτη Όλγα Χαρίκλεια Σταματία Μαρίνα Πηνελόπη Αργυρώ Ευθυμία Λαμπρινή Σπυριδούλα Ιφιγένεια
Αρετή Βαρβάρα Ραλλού Κλεοπάτρα Αλίκη Ξανθή Ροδάνθη Φανή Μελίνα Δανάη Ναταλία Ευφροσύνη Καλλιόπη Πολυξένη Ευσταθία
Χαρά Ελπίδα Μυρτώ Κλειώ Βικτώρια Ισμήνη Ανθή Ασπασία Ευανθία Αθηνά Ουρανία Τριανταφυλλιά Γαρυφαλλιά Ελισάβετ Ρεβέκκα
Φιλιώ Φρόσω Σμαράγδα Μαρκέλλα Στέλλα Ρένα Τασούλα Βούλα Λένα Ευτέρπη Θάλεια Ελευθερία Μαριάννα Κυριακούλα Ερμιόνη
Νεφέλη Αλεξία Ιουλία Μάρθα Κυβέλη Φαίδρα Ηρώ Δάφνη Νίκη Αμαλία`;

const male = MALE.split('·').flatMap((s) => s.trim().split('\n')).map((s) => s.trim().split(' ') as [string, string]);
const female = FEMALE.trim().split(/\s+/);

describe('the Greek vocative', () => {
  it('covers the 200 most common first names, 100 male and 100 female, each once', () => {
    expect(male).toHaveLength(100);
    expect(female).toHaveLength(100);
    expect(new Set([...male.map(([n]) => n), ...female]).size).toBe(200);
  });

  it.each(male)('greets %s as "Αγαπητέ %s,"', (name, vocative) => {
    expect(greekGender(name)).toBe('male');
    expect(greekVocative(name)).toBe(vocative);
    expect(greetingLine('el', { firstName: name }, el)).toBe(`Αγαπητέ ${vocative},`);
  });

  it.each(female)('greets %s as "Αγαπητή %s,"', (name) => {
    expect(greekGender(name)).toBe('female');
    expect(greekVocative(name)).toBe(name);
    expect(greetingLine('el', { firstName: name }, el)).toBe(`Αγαπητή ${name},`);
  });

  it('takes the gender from the account when it has one, and never writes "Αγαπητέ/ή"', () => {
    expect(greetingLine('el', { firstName: 'Ελένη', gender: 'female' }, el)).toBe('Αγαπητή Ελένη,');
    // A name unknown or not Greek gets a polite greeting without a name.
    for (const r of [null, { firstName: '' }, { firstName: 'John' }, { firstName: 'Иван' }, { firstName: 'Νίκος1' }]) {
      const line = greetingLine('el', r, el);
      expect(line).toBe('Χαίρετε,');
      expect(line).not.toContain('/');
    }
    // A double first name declines both parts.
    expect(greekVocative('Γιώργος-Στέφανος')).toBe('Γιώργο-Στέφανε');
  });

  it('greets a Latin name by the gender the account states, and the stated gender before the one a name suggests', () => {
    expect(greetingLine('el', { firstName: 'John', lastName: 'Smith', gender: 'male' }, el)).toBe('Αγαπητέ John,');
    expect(greetingLine('el', { firstName: 'Mary', gender: 'female' }, el)).toBe('Αγαπητή Mary,');
    expect(greetingLine('el', { firstName: 'Anne-Marie', gender: 'female' }, el)).toBe('Αγαπητή Anne-Marie,');
    // Not stated: no guess from a Latin name.
    expect(greetingLine('el', { firstName: 'Mary', gender: null }, el)).toBe('Χαίρετε,');
    // A name whose ending suggests the other gender (an Italian Andrea): the account is right.
    expect(greetingLine('el', { firstName: 'Andrea', gender: 'male' }, el)).toBe('Αγαπητέ Andrea,');
    expect(greetingLine('el', { firstName: 'Ανδρέα', gender: 'male' }, el)).toBe('Αγαπητέ Ανδρέα,');
    expect(greetingLine('el', { firstName: 'Στέφανος', gender: 'male' }, el)).toBe('Αγαπητέ Στέφανε,');
  });
});

describe('greetings in Russian and English', () => {
  it('greets with first name and patronymic when known, the gender from the patronymic', () => {
    expect(greetingLine('ru', { firstName: 'Иван', middleName: 'Петрович', lastName: 'Смирнов' }, ru)).toBe('Уважаемый Иван Петрович!');
    expect(greetingLine('ru', { firstName: 'Мария', middleName: 'Ивановна' }, ru)).toBe('Уважаемая Мария Ивановна!');
    expect(greetingLine('ru', { firstName: 'Мария' }, ru)).toBe('Здравствуйте, Мария!');
    expect(greetingLine('ru', { firstName: 'Γιώργος' }, ru)).toBe('Здравствуйте!');
    expect(greetingLine('ru', null, ru)).toBe('Здравствуйте!');
  });

  it('greets by the gender the account states, with the first name alone when there is no patronymic', () => {
    expect(greetingLine('ru', { firstName: 'Мария', gender: 'female' }, ru)).toBe('Уважаемая Мария!');
    expect(greetingLine('ru', { firstName: 'Иван', gender: 'male' }, ru)).toBe('Уважаемый Иван!');
    expect(greetingLine('ru', { firstName: 'John', lastName: 'Smith', gender: 'male' }, ru)).toBe('Уважаемый John!');
    expect(greetingLine('ru', { firstName: 'Mary', gender: 'female' }, ru)).toBe('Уважаемая Mary!');
    expect(greetingLine('ru', { firstName: 'Mary' }, ru)).toBe('Здравствуйте!');
    // The stated gender before the one the patronymic suggests.
    expect(greetingLine('ru', { firstName: 'Саша', middleName: 'Петрович', gender: 'female' }, ru)).toBe('Уважаемая Саша Петрович!');
  });

  it('greets in English by the first name', () => {
    expect(greetingLine('en', { firstName: 'Emma', lastName: 'Wilson' }, en)).toBe('Dear Emma,');
    expect(greetingLine('en', null, en)).toBe('Hello,');
  });

  it('guesses the language from the script of the name', () => {
    expect(guessLanguage('Иван Петров')).toBe('ru');
    expect(guessLanguage('Μαρία Παπαδοπούλου')).toBe('el');
    expect(guessLanguage('John Smith')).toBe('en');
    expect(guessLanguage('')).toBe('en');
  });
});
