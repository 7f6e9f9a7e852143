import { describe, expect, it } from 'vitest';
import { RESERVATION_DATE_FILTER_TYPES, RESERVATION_FIELDS, RESERVATION_GROUPS, RESERVATION_OWNER_PAYMENT_TYPES, RESERVATION_SOURCES, RESERVATION_STAGES } from '@crm/contract';
import { itLabelsEvery, localeTexts } from './locale-texts.testing.ts';

/** The reservation screens label every described field, group and list value from the texts. */
describe('reservation texts', () => {
  const { en, el, ru } = localeTexts();
  itLabelsEvery('reservation field, group and list value', [
    ...RESERVATION_FIELDS.map((d) => `fields.reservation.${d.name}`),
    ...RESERVATION_GROUPS.map((g) => `reservations.group.${g}`),
    ...RESERVATION_STAGES.map((v) => `reservations.stage.${v}`),
    ...RESERVATION_SOURCES.map((v) => `reservations.source.${v}`),
    ...RESERVATION_OWNER_PAYMENT_TYPES.map((v) => `reservations.ownerPaymentType.${v}`),
    ...RESERVATION_DATE_FILTER_TYPES.map((v) => `reservations.dateFilter.${v}`),
  ]);
  it('writes Greek and Russian labels, not English ones', () => {
    const same = RESERVATION_FIELDS.map((d) => `fields.reservation.${d.name}`).filter((k) => !/mail/i.test(en[k]!) && (el[k] === en[k] || ru[k] === en[k]));
    expect(same).toEqual([]);
    expect(el['fields.reservation.checkIn']).toBe('Άφιξη');
  });
});
