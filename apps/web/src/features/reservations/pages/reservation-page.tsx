import { Alert, Badge, Card, SimpleGrid, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useNavigate } from 'react-router';
import { RESERVATION_GROUPS } from '@crm/contract/reservation-fields';
import type { TReservationAnswer } from '@crm/contract';
import { RESERVATION, href } from '@crm/contract/resources';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { IconAlertTriangle } from '../../../components/icons.ts';
import { RecordPage } from '../../../kit/record-page.tsx';
import { useGoBack } from '../../../components/go-back.ts';
import { recordScreen, saveRecord, useDeleteRecord, useRecordForm, type RecordFormProps } from '../../../kit/record.tsx';
import { blankReservationQuery, deleteReservation, reservationKeys, reservationQuery, saveReservation } from '../api/reservations.ts';
import { bodyOf, conflictLabel, mergeReservation, moneyOf, toForm, type Sheet } from '../reservation-form.ts';
import { reservationSections } from '../components/reservation-sections.tsx';
import { ReservationFieldErrors, ReservationFoot } from '../components/reservation-foot.tsx';
import { useStay } from '../components/use-stay.ts';

/** /Reservations/Add (create; ?objectId=, ?checkIn=, ?demandId= preset it), /Reservations/{id} (view), /Reservations/Edit/{id} (edit). */
export const ReservationPage = recordScreen(
  { testId: 'reservation', route: RESERVATION.screens.list, texts: 'reservations.ui' },
  {
    blank: (search) =>
      blankReservationQuery({
        ...(Number(search.get('objectId')) > 0 ? { objectId: Number(search.get('objectId')) } : {}),
        ...(Number(search.get('demandId')) > 0 ? { demandId: Number(search.get('demandId')) } : {}),
        ...(/^\d{4}-\d{2}-\d{2}$/.test(search.get('checkIn') ?? '') ? { checkIn: search.get('checkIn')! } : {}),
      }),
    stored: reservationQuery,
    recent: ['reservation', (r, id) => [`#${r.reservationNumber || id}`, r.clientAccount || [r.client.lastName, r.client.firstName].filter(Boolean).join(' '), r.object ? `#${r.object.referenceNumber}` : ''].filter(Boolean).join(' · ')],
  },
  ReservationForm,
);

/**
 * Saved from the foot of a long form (a phone): the refusal is brought into view, at its first
 * field when that is on the form, else the message over the form.
 */
const showRefusal = (fields: string[]) =>
  requestAnimationFrame(() => {
    const input = fields.map((k) => document.querySelector<HTMLElement>(`[data-testid="reservation-${k}"]`)).find(Boolean);
    if (input) input.focus();
    else document.querySelector('[data-testid="reservation-form-error"], [data-testid="reservation-field-errors"]')?.scrollIntoView({ block: 'center' });
  });

function ReservationForm(props: RecordFormProps<TReservationAnswer>) {
  const { record: r, mode } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const client = useQueryClient();
  const rf = useRecordForm({ record: r, mode, carryKey: `reservation-${r.id}`, toForm });
  const { form, setForm, errors, setErrors, readOnly } = rf;
  const setField: Sheet['setField'] = (name, v) => setForm((f) => ({ ...f, fields: { ...f.fields, [name]: v } }));
  const stay = useStay(form.fields, setField, errors);

  const save = () => {
    if (rf.busy || focusInvalidEntry()) return;
    // A stay that is none (its error is already at the field): nothing is sent.
    const badStay = stay.wrong();
    if (badStay) {
      if (badStay === 'checkIn') setErrors({ checkIn: t('validation.required') });
      document.querySelector<HTMLInputElement>(`[data-testid="reservation-${badStay}"]`)?.focus();
      return;
    }
    // What a booking needs, said at its field (the server refuses the same, but in one banner).
    const missing: Record<string, string> = {};
    if (!form.object) missing.objectId = t('reservations.ui.objectRequired');
    if (!String(form.fields['client.lastName'] ?? '').trim() && !form.account) missing['client.lastName'] = t('validation.required');
    if (Object.keys(missing).length) {
      setErrors(missing);
      document.querySelector<HTMLInputElement>(`[data-testid="${missing.objectId ? 'reservation-object-picker' : 'reservation-client.lastName'}"]`)?.focus();
      return;
    }
    void saveRecord(
      rf,
      {
        body: () => bodyOf(form, r),
        // Saved again after a lost answer, the same content is the same change: no second booking.
        send: saveReservation,
        saved: (saved) => {
          client.setQueryData(reservationKeys.one(saved.id!), saved);
          void client.invalidateQueries({ queryKey: reservationKeys.lists });
          return { to: href(RESERVATION.screens.view, { id: saved.id! }), replace: mode === 'create', banner: ['success', t('reservations.ui.saved')] };
        },
        conflict: {
          current: (c) => c as TReservationAnswer,
          merge: (current) => mergeReservation(rf.loaded, form, toForm(current)),
          store: (current) => client.setQueryData(reservationKeys.one(current.id!), { ...current, stageOptions: r.stageOptions, sourceOptions: r.sourceOptions, ownerPaymentTypeOptions: r.ownerPaymentTypeOptions }),
          label: conflictLabel(t),
        },
        refused: showRefusal,
      },
      t,
      navigate,
    );
  };

  const confirmDelete = useDeleteRecord();
  const remove = () =>
    confirmDelete({
      title: t('reservations.ui.deleteTitle'),
      text: t('reservations.ui.deleteConfirm', { number: r.reservationNumber }),
      run: () => deleteReservation(r.id!),
      drop: [reservationKeys.one(r.id!)],
      refresh: [reservationKeys.all],
      done: { banner: ['success', t('reservations.ui.deleted')], to: href(RESERVATION.screens.list) },
      onError: rf.setError,
      release: rf.leaveGuard.release,
    });

  const sections = reservationSections({ r, form, setForm, setField, errors, readOnly }, stay, moneyOf(form.fields));
  const label = (name: string) => t(`fields.reservation.${name}`);
  return (
    <RecordPage
      of={props}
      title={t('reservations.ui.title', { number: r.reservationNumber })}
      titleAside={mode !== 'create' && <Badge variant="light">{r.stageOptions.find((o) => o.value === r.reservationStage)?.text}</Badge>}
      form={rf}
      actions={{ save, remove }}
    >
      {!readOnly && <ReservationFieldErrors errors={errors} />}
      {readOnly && Boolean(r.problem || r.awaiting) && (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="reservation-attention">
          {[r.problem && `${label('problem')}: ${String(r.problem)}`, r.awaiting && `${label('awaiting')}: ${String(r.awaiting)}`].filter(Boolean).join(' · ')}
        </Alert>
      )}
      {RESERVATION_GROUPS.map((g) => (
        <Card key={g} withBorder padding="sm" data-testid={`reservation-group-${g}`}>
          <Title order={3} size="h5" mb="xs">
            {t(`reservations.group.${g}`)}
          </Title>
          <SimpleGrid cols={{ base: readOnly ? 2 : 1, xs: 2, lg: 4 }} spacing="sm" verticalSpacing="xs">
            {sections[g]}
          </SimpleGrid>
        </Card>
      ))}
      {!readOnly && (
        <ReservationFoot
          editing={mode === 'edit'}
          onDelete={remove}
          onCancel={() => (mode === 'edit' ? navigate(href(RESERVATION.screens.view, { id: r.id! })) : goBack())}
          onSave={save}
          busy={rf.busy}
        />
      )}
      {mode !== 'create' && <RecordStamps createdOn={r.createdOn} createdBy={r.createdBy} modifiedOn={r.modifiedOn} modifiedBy={r.modifiedBy} testId="reservation-stamps" />}
    </RecordPage>
  );
}
