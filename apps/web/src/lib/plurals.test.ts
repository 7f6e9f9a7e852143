import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { startShippedTexts } from './shipped-texts.testing.ts';

beforeAll(startShippedTexts);

const say = async (lng: string, key: string, count: number) => {
  await i18next.changeLanguage(lng);
  return i18next.t(key, { count });
};

describe('texts with a number agree with it', () => {
  it('the reservations footer: one booking, and Russian 21 (singular) against 22 and 25', async () => {
    expect(await say('en', 'reservations.ui.sums', 1)).toBe('Totals of the 1 matching reservation');
    expect(await say('en', 'reservations.ui.sums', 3)).toBe('Totals of all 3 matching reservations');
    expect(await say('el', 'reservations.ui.sums', 1)).toBe('Σύνολα της 1 κράτησης του φίλτρου');
    expect(await say('el', 'reservations.ui.sums', 2)).toBe('Σύνολα όλων των 2 κρατήσεων του φίλτρου');
    expect(await say('ru', 'reservations.ui.sums', 21)).toBe('Итоги по 21 найденному бронированию');
    expect(await say('ru', 'reservations.ui.sums', 22)).toBe('Итоги по всем 22 найденным бронированиям');
    expect(await say('ru', 'reservations.ui.sums', 25)).toBe('Итоги по всем 25 найденным бронированиям');
  });

  it('the merge dialog for a wrong selection: one account, and Russian one, few and many', async () => {
    expect(await say('en', 'accounts.ui.merge.wrongCount', 1)).toBe('You selected 1 account. Please select 2 accounts to merge!');
    expect(await say('en', 'accounts.ui.merge.wrongCount', 5)).toBe('You selected 5 accounts. Please select 2 accounts to merge!');
    expect(await say('el', 'accounts.ui.merge.wrongCount', 1)).toBe('Επιλέξατε 1 επαφή. Για συγχώνευση επιλέξτε 2 επαφές!');
    expect(await say('el', 'accounts.ui.merge.wrongCount', 3)).toBe('Επιλέξατε 3 επαφές. Για συγχώνευση επιλέξτε 2 επαφές!');
    expect(await say('ru', 'accounts.ui.merge.wrongCount', 1)).toBe('Вы выбрали 1 контакт. Для объединения выберите 2 контакта!');
    expect(await say('ru', 'accounts.ui.merge.wrongCount', 3)).toBe('Вы выбрали 3 контакта. Для объединения выберите 2 контакта!');
    expect(await say('ru', 'accounts.ui.merge.wrongCount', 5)).toBe('Вы выбрали 5 контактов. Для объединения выберите 2 контакта!');
    await i18next.changeLanguage('en');
  });

  it('Greek singular for one deal more on the board and one account selected to merge', async () => {
    expect(await say('el', 'deals.ui.more', 1)).toBe('Άλλη 1 στη λίστα');
    expect(await say('el', 'deals.ui.more', 4)).toBe('Άλλες 4 στη λίστα');
    expect(await say('el', 'accounts.ui.merge.mergeSelected', 1)).toBe('Συγχώνευση (1 επιλεγμένη)');
    expect(await say('el', 'accounts.ui.merge.mergeSelected', 2)).toBe('Συγχώνευση (2 επιλεγμένες)');
    await i18next.changeLanguage('en');
  });

  it('the badge of new matching properties on a lead: Greek one νέο, Russian one, few and many', async () => {
    expect(await say('en', 'leads.ui.matches.newCount', 1)).toBe('1 new');
    expect(await say('en', 'leads.ui.matches.newCount', 5)).toBe('5 new');
    expect(await say('el', 'leads.ui.matches.newCount', 1)).toBe('1 νέο');
    expect(await say('el', 'leads.ui.matches.newCount', 5)).toBe('5 νέα');
    expect(await say('ru', 'leads.ui.matches.newCount', 1)).toBe('1 новый');
    expect(await say('ru', 'leads.ui.matches.newCount', 3)).toBe('3 новых');
    expect(await say('ru', 'leads.ui.matches.newCount', 5)).toBe('5 новых');
    expect(await say('ru', 'leads.ui.matches.newCount', 21)).toBe('21 новый');
    await i18next.changeLanguage('en');
  });
});
