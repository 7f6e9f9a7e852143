import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShippedTexts, texts } from './shipped-texts.testing.ts';

beforeAll(async () => {
  await startShippedTexts();
  await i18next.changeLanguage('ru');
});
afterAll(() => i18next.changeLanguage('en'));

const ru = () => texts('ru');
const say = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
/** A word as a whole word: JavaScript's \b does not know Cyrillic letters. */
const word = (stem: string, endings: string) => new RegExp(`(?<!\\p{L})${stem}(?:${endings})(?!\\p{L})`, 'iu');

describe('the Russian texts as a Russian-speaking agency reads them', () => {
  it('call a viewing «показ» on every screen, never «просмотр»', () => {
    const viewing = word('просмотр', '|а|у|ом|е|ы|ов|ам|ами|ах');
    expect(Object.entries(ru()).filter(([, v]) => viewing.test(v))).toEqual([]);
    expect(say('objects.deleteHasViewings', { count: 3 })).toMatch(/^Объект входит в показы \(3\)/);
  });

  it('call the circle on the map an approximate area («примерная область»), as the publish check does, not a «район» like a place', () => {
    const circle = [
      'objectsearch.map.circleCentre',
      'objectsearch.map.displayCoordinatesHint',
      'objectsearch.map.circleLatitude',
      'objectsearch.map.circleLongitude',
      'objectsearch.map.radius',
      'objectsearch.map.clickCircle',
      'objects.circleRequired',
      'fields.object.mapCircleRadius',
      'publishing.missing.mapCircle',
    ];
    expect(circle.filter((k) => !/област/i.test(ru()[k]!) || /район/i.test(ru()[k]!))).toEqual([]);
  });

  it('label "Show the exact location" alike on the property and on its map', () => {
    expect(ru()['fields.object.displayCoordinates']).toBe(ru()['objectsearch.map.displayCoordinates']);
    expect(ru()['publishing.object.mapExact']).toBe('Расположение на карте');
  });

  it('say the same of the other user\'s values kept after a conflict on every editor', () => {
    const kept = ['common.conflictKept', 'objects.edit.conflictKept', 'leads.ui.conflictKept', 'accounts.ui.conflictKept'].map((k) => say(k, { fields: 'Цена' }));
    expect(new Set(kept)).toEqual(new Set(['В этих полях оставлены значения другого пользователя: Цена.']));
  });

  it('agree with any number: the map limit, a refused batch of files, a texts import that changes nothing', () => {
    expect(say('objectsearch.mapLimited', { max: 2000, total: 2341 })).toBe('На карте показаны первые 2000 из найденных объектов (2341). Сузьте поиск, чтобы увидеть остальные.');
    expect(say('files.typeNotAllowedBatch', { name: 'a.exe', count: 21 })).toBe(
      'Файл «a.exe» относится к типу, который не принимается, поэтому не загружен ни один из выбранных файлов (21). Выберите их снова без него.',
    );
    expect(say('settings.ui.texts.unchanged', { count: 5 })).toBe('Менять нечего: все 5 прочитанных строк совпадают с текущими текстами.');
    expect(say('settings.ui.texts.unchanged', { count: 3 })).toBe('Менять нечего: все 3 прочитанные строки совпадают с текущими текстами.');
  });

  it('name a key\'s holder in a sentence that reads with a name and with none', () => {
    expect(say('objectkeys.state.lastWith', { holder: 'Ivanov Stavros' })).toBe('последний раз был у: Ivanov Stavros');
    expect(say('objectkeys.state.out', { holder: say('objectkeys.state.noHolder'), date: '12.03.2026' })).toBe('Ключ выдан: неизвестно кому, с 12.03.2026');
    expect(ru()['objectkeys.history.title']).toBe('История выдач');
  });

  it('word viewing results, property kinds and log lines for any client, property or lead', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => ru()[`viewings.result.${n}`])).toEqual([
      'Запланирован',
      'Понравилось',
      'Повторный показ',
      'Клиент сделал предложение',
      'Не заинтересовало',
      'Отменён',
      'Клиент не пришёл',
    ]);
    expect([ru()['objects.list.objectSubTypes.4'], ru()['publishing.plural.s4']]).toEqual(['Частный дом', 'Частные дома']);
    // The same line is written for a property (masculine) and a lead (feminine).
    expect(ru()['actionLog.message.Left empty']).toBe('Запись создана и осталась пустой');
    // A date column is not the state «Выполнено».
    expect(ru()['activities.col.completedOn']).not.toBe(ru()['activities.state.complete']);
  });

  it('show a number typed as a Russian agent types it, with a space between the thousands', () => {
    expect(say('fields.number.format')).toBe('Это не число: напишите, например, 1\u00a0250,50 или 1250,50');
  });

  it('split a booking\'s total («сумма бронирования») into prepayment and balance', () => {
    expect(say('reservations.ui.unallocated', { amount: '100,00 €' })).toBe('100,00 € из суммы бронирования ещё не распределено между предоплатой и остатком.');
    expect(say('reservations.ui.overAllocated', { amount: '100,00 €' })).toBe('Предоплата и остаток превышают сумму бронирования на 100,00 €.');
  });
});
