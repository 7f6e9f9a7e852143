import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { RESERVATION_MAX_NIGHTS, checkOutOf, nightsBetween } from '@crm/contract/reservation-fields';
import { toWire, type Draft } from '../../../components/fields/field-values.ts';
import type { Drafts } from '../reservation-form.ts';

/**
 * The stay as typed: the check-in and the nights give the check-out, a check-out typed gives the
 * nights. A check-out that gives no stay (on or before the check-in, or before one is typed) is
 * kept as typed, with its error, until the dates or the nights make a stay again; what is wrong is
 * said at its field at once (the server refuses the same).
 */
export function useStay(fields: Drafts, setField: (name: string, v: Draft) => void, errors: Record<string, string>) {
  const { t } = useTranslation();
  const typedNights = toWire('number', fields.duration ?? null);
  const nights = typeof typedNights === 'number' && typedNights > 0 ? typedNights : null;
  const checkIn = (fields.checkIn as string | null) || null;
  const [typedCheckOut, setTypedCheckOut] = useState<string | null>(null);
  const checkOut = typedCheckOut ?? (typedNights === 0 ? checkIn : checkOutOf(checkIn, nights));
  const stayErrors: Record<string, string> = {};
  if (typedCheckOut && checkIn && nightsBetween(checkIn, typedCheckOut) <= 0) stayErrors.checkOut = t('reservations.checkOutBeforeCheckIn');
  if (typeof typedNights === 'number' && typedNights < 1) stayErrors.duration = t('reservations.tooShort');
  if (typeof typedNights === 'number' && typedNights > RESERVATION_MAX_NIGHTS) stayErrors.duration = t('reservations.tooLong', { max: RESERVATION_MAX_NIGHTS });
  return {
    checkIn,
    checkOut,
    error: (name: string) => stayErrors[name] ?? errors[name],
    /** The first field of a stay that is none (its error already at the field), or a check-out typed before any check-in. */
    wrong: (): string | undefined => Object.keys(stayErrors)[0] ?? (typedCheckOut && !checkIn ? 'checkIn' : undefined),
    setCheckIn: (v: string | null) => {
      setField('checkIn', v);
      // A check-out typed before the check-in was: the nights follow from it once it is after it.
      if (typedCheckOut && v && nightsBetween(v, typedCheckOut) > 0) {
        setField('duration', nightsBetween(v, typedCheckOut));
        setTypedCheckOut(null);
      }
    },
    setCheckOut: (v: string | null) => {
      if (!v) return;
      if (checkIn && nightsBetween(checkIn, v) > 0) {
        setField('duration', nightsBetween(checkIn, v));
        setTypedCheckOut(null);
      } else setTypedCheckOut(v);
    },
    setNights: (v: Draft) => {
      setField('duration', v);
      // Nights typed: the check-out follows from them again.
      setTypedCheckOut(null);
    },
  };
}
export type Stay = ReturnType<typeof useStay>;
