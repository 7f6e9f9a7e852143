import { Anchor, Checkbox, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { RESERVATION_GROUPS, RESERVATION_MAX_NIGHTS } from '@crm/contract/reservation-fields';
import { ACCOUNT, LEAD, OBJECT, href } from '@crm/contract/resources';
import { FieldInput } from '../../../components/fields/field-input.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { SearchPicker } from '../../../components/search-picker.tsx';
import { formatDate, formatMoney2 } from '../../../lib/format.ts';
import { searchAccounts, searchLeadsQuick } from '../../../lib/pickers.ts';
import { searchShortLetObjects } from '../api/reservations.ts';
import { CLIENT, described, fieldNamed, type Money, type Sheet } from '../reservation-form.ts';
import { Computed, ReservationField, Shown } from './reservation-field.tsx';
import type { Stay } from './use-stay.ts';

/**
 * The booking form's sections, one a card (the stay, the guest, the booking, the payment, the
 * owner, the commission, the notes): each its described fields, and what is drawn by hand.
 */
export function reservationSections(s: Sheet, stay: Stay, money: Money): Record<(typeof RESERVATION_GROUPS)[number], ReactNode> {
  return {
    stay: <StayFields s={s} stay={stay} />,
    client: <ClientFields s={s} />,
    booking: <BookingFields s={s} />,
    payment: <PaymentFields s={s} money={money} />,
    owner: <OwnerFields s={s} money={money} />,
    commission: (
      <>
        <Described s={s} group="commission" />
        <Computed name="finalComission" value={formatMoney2(s.readOnly ? (s.r.finalComission as number) : money.finalComission)} testId="reservation-final-commission" />
      </>
    ),
    notes: <Described s={s} group="notes" />,
  };
}

function Described({ s, group }: { s: Sheet; group: string }) {
  return described(group).map((d) => <ReservationField key={d.name} s={s} d={d} />);
}

/** The property, the check-in, the nights and the check-out (which follow from each other), then the rest of the stay. */
function StayFields({ s, stay }: { s: Sheet; stay: Stay }) {
  const { t } = useTranslation();
  const label = (name: string) => t(`fields.reservation.${name}`);
  const { r, readOnly } = s;
  if (readOnly)
    return (
      <>
        <Shown name="objectId" testId="reservation-object">
          {r.object ? (
            <Anchor component={Link} to={href(OBJECT.screens.view, { id: r.object.id })}>
              #{r.object.referenceNumber}
              {r.object.websiteCode ? ` · ${r.object.websiteCode}` : ''}
              {r.object.title ? ` · ${r.object.title}` : ''}
            </Anchor>
          ) : null}
        </Shown>
        <Shown name="checkIn">{formatDate(r.checkIn as string | null)}</Shown>
        <Shown name="duration">{String(r.duration ?? '')}</Shown>
        <Shown name="checkOut">{formatDate(r.checkOut as string | null)}</Shown>
        <Described s={s} group="stay" />
      </>
    );
  return (
    <>
      <SearchPicker
        label={label('objectId')}
        value={s.form.object}
        onChange={(v) => s.setForm((f) => ({ ...f, object: v }))}
        search={searchShortLetObjects}
        queryKey="object-str"
        testId="reservation-object-picker"
        required
        error={s.errors.objectId}
      />
      <DateField label={label('checkIn')} value={stay.checkIn} onChange={stay.setCheckIn} error={s.errors.checkIn} required data-testid="reservation-checkIn" />
      <FieldInput
        type="number"
        label={label('duration')}
        value={s.form.fields.duration ?? null}
        onChange={stay.setNights}
        error={stay.error('duration')}
        options={[]}
        required
        integer
        min={1}
        max={RESERVATION_MAX_NIGHTS}
        testId="reservation-duration"
        autoFocus={false}
      />
      <DateField
        label={label('checkOut')}
        description={t('reservations.ui.checkOutHint')}
        value={stay.checkOut}
        // The calendar offers the days after the check-in; a day typed before it is kept, with its error
        // (a minimum date would have dropped it without a word).
        excludeDate={(day) => stay.checkIn != null && String(day).slice(0, 10) <= stay.checkIn}
        onChange={stay.setCheckOut}
        error={stay.error('checkOut')}
        clearable={false}
        data-testid="reservation-checkOut"
      />
      <Described s={s} group="stay" />
    </>
  );
}

/** The guest: an account picked (or the guest saved as a new one), then the guest's described fields. */
function ClientFields({ s }: { s: Sheet }) {
  const { t } = useTranslation();
  const { r, form } = s;
  return (
    <>
      {s.readOnly ? (
        <Shown name="clientAccount" testId="reservation-client-account">
          {r.clientAccountId ? (
            <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: r.clientAccountId })}>
              {r.clientAccount}
            </Anchor>
          ) : null}
        </Shown>
      ) : (
        <div style={{ gridColumn: '1 / -1' }}>
          <SearchPicker
            label={t('reservations.ui.pickAccount')}
            value={form.account}
            onChange={(v) => s.setForm((f) => ({ ...f, account: v, saveClientAsAccount: false }))}
            search={searchAccounts}
            queryKey="account"
            testId="reservation-account-picker"
          />
          {!form.account && (
            <Checkbox
              mt="xs"
              label={t('reservations.ui.saveAsAccount')}
              checked={form.saveClientAsAccount}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                s.setForm((f) => ({ ...f, saveClientAsAccount: checked }));
              }}
              data-testid="reservation-save-account"
            />
          )}
          {form.account && (
            <Text size="xs" c="dimmed" mt={4}>
              {t('reservations.ui.accountHint')}
            </Text>
          )}
        </div>
      )}
      {CLIENT.map((d) => (
        <ReservationField key={d.name} s={s} d={d} />
      ))}
    </>
  );
}

/** The booking's described fields, its date, and the lead it came from. */
function BookingFields({ s }: { s: Sheet }) {
  const { t } = useTranslation();
  const { r } = s;
  return (
    <>
      <Described s={s} group="booking" />
      {s.readOnly ? <Shown name="bookingDate">{formatDate(r.bookingDate as string | null)}</Shown> : <ReservationField s={s} d={fieldNamed('bookingDate')} />}
      {s.readOnly ? (
        <Shown name="demandId">
          {r.demandId ? (
            <Anchor component={Link} to={href(LEAD.screens.view, { id: r.demandId as number })}>
              {r.demand}
            </Anchor>
          ) : null}
        </Shown>
      ) : (
        <SearchPicker label={t('fields.reservation.demandId')} value={s.form.lead} onChange={(v) => s.setForm((f) => ({ ...f, lead: v }))} search={searchLeadsQuick} queryKey="lead" testId="reservation-lead-picker" />
      )}
    </>
  );
}

/** The money paid and to pay, the deposit they make, and what of the total is not allocated. */
function PaymentFields({ s, money }: { s: Sheet; money: Money }) {
  const { t } = useTranslation();
  const { unallocated } = money;
  return (
    <>
      <Described s={s} group="payment" />
      <Computed name="totalPaymentDeposit" value={formatMoney2(s.readOnly ? (s.r.totalPaymentDeposit as number) : money.deposit)} testId="reservation-deposit" />
      {!s.readOnly && unallocated != null && unallocated !== 0 && (
        <Text size="sm" c={unallocated < 0 ? 'red.8' : 'dimmed'} data-testid="reservation-unallocated" style={{ gridColumn: '1 / -1' }}>
          {t(unallocated < 0 ? 'reservations.ui.overAllocated' : 'reservations.ui.unallocated', { amount: formatMoney2(Math.abs(unallocated)) })}
        </Text>
      )}
    </>
  );
}

/** What the owner is paid, and when. */
function OwnerFields({ s, money }: { s: Sheet; money: Money }) {
  const { t } = useTranslation();
  return (
    <>
      <Described s={s} group="owner" />
      {/* Possible (an owner paid for extras), but far more often a typing mistake (10 000 for 1 000). */}
      {!s.readOnly && money.ownerOver > 0 && (
        <Text size="sm" c="red.8" data-testid="reservation-owner-over" style={{ gridColumn: '1 / -1' }}>
          {t('reservations.ui.ownerOverTotal', { amount: formatMoney2(money.ownerOver) })}
        </Text>
      )}
      {s.readOnly ? <Shown name="ownerPaymentDate">{formatDate(s.r.ownerPaymentDate as string | null)}</Shown> : <ReservationField s={s} d={fieldNamed('ownerPaymentDate')} />}
    </>
  );
}
