import { RESERVATION_CANCELLED } from '@crm/contract/reservation-fields';
import { RESERVATION, href } from '@crm/contract/resources';

/**
 * Where "New reservation" on a property's page leads (the booking form with the property set), or
 * null where it is not offered: the property is not offered for short rent (a booking would be
 * refused), or the user is a branch user, who has no reservations (docs/access.md).
 */
export function newReservationLink(object: { id: number; forShortRent?: unknown }, user: { branchId: number | null } | null): string | null {
  if (!user || user.branchId != null || object.forShortRent !== true) return null;
  return href(RESERVATION.screens.add, undefined, { objectId: object.id });
}

/** A cancelled stay holds no nights: the property's page strikes it through, as the reservations list does. */
export const isCancelledStay = (r: { reservationStage: number }) => r.reservationStage === RESERVATION_CANCELLED;
