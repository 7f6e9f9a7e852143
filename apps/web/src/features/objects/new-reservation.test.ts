import { describe, expect, it } from 'vitest';
import { isCancelledStay, newReservationLink } from './new-reservation.ts';

describe("a property's New reservation", () => {
  const office = { branchId: null };
  it('opens the booking form with the property set, for a short let and a user who has reservations', () => {
    expect(newReservationLink({ id: 42, forShortRent: true }, office)).toBe('/Reservations/Add?objectId=42');
  });
  it('is not offered for a property not let short, nor to a branch user, nor signed out', () => {
    expect(newReservationLink({ id: 42, forShortRent: false }, office)).toBeNull();
    expect(newReservationLink({ id: 42, forShortRent: null }, office)).toBeNull();
    expect(newReservationLink({ id: 42 }, office)).toBeNull();
    expect(newReservationLink({ id: 42, forShortRent: true }, { branchId: 3 })).toBeNull();
    expect(newReservationLink({ id: 42, forShortRent: true }, null)).toBeNull();
  });
  it('strikes through only a cancelled stay', () => {
    expect(isCancelledStay({ reservationStage: 7 })).toBe(true);
    for (const stage of [1, 2, 3, 4, 5, 6, 8]) expect(isCancelledStay({ reservationStage: stage })).toBe(false);
  });
});
