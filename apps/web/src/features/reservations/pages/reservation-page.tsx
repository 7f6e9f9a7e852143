import { Alert, Anchor, Badge, Button, Card, Checkbox, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  RESERVATION_FIELDS,
  RESERVATION_GROUPS,
  RESERVATION_MAX_NIGHTS,
  checkOutOf,
  depositOf,
  finalComissionOf,
  nightsBetween,
  unallocatedOf,
  type TReservationFieldDescription,
} from '@crm/contract/reservation-fields';
import type { TReservationAnswer, TSelectOption } from '@crm/contract';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { keyedByAddress } from '../../../components/keyed-by-address.tsx';
import { FieldInput } from '../../../components/fields/field-input.tsx';
import { TimeField } from '../../../components/fields/time-field.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { formatFieldValue, toDraft, toWire, type Draft } from '../../../components/fields/field-values.ts';
import { IconAlertTriangle, IconTrash } from '../../../components/icons.ts';
import { RecordToolbar } from '../../../components/record-toolbar.tsx';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { useRecordOpened } from '../../../lib/recent.ts';
import { SearchPicker, type Picked } from '../../../components/search-picker.tsx';
import { JUST_READ_MS } from '../../../lib/freshness.ts';
import { ApiError } from '../../../lib/api.ts';
import { showBanner, showBannerAfterNavigation } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDate, formatMoney2 } from '../../../lib/format.ts';
import { DateField } from '../../../components/fields/date-field.tsx';
import { useGoBack } from '../../../components/go-back.ts';
import {
  blankReservationQuery,
  deleteReservation,
  reservationKeys,
  reservationQuery,
  saveReservation,
  searchAccounts,
  searchLeadsQuick,
  searchShortLetObjects,
} from '../api/reservations.ts';
import { carryForm, conflictMessage, mergeOnConflict, takeCarriedForm } from '../../../lib/conflict-merge.ts';
import { useFormLeaveGuard } from '../../../lib/unsaved-guard.tsx';
import { useChangeKeys } from '../../../lib/change-key.ts';
import { mailtoOf, phoneLinks } from '../contact-links.ts';
import { PageLoading } from '../../../components/page-loading.tsx';

type Mode = 'create' | 'edit' | 'view';
type Drafts = Record<string, Draft>;
type Form = { fields: Drafts; object: Picked; account: Picked; lead: Picked; saveClientAsAccount: boolean };

/** A link a finger taps (a phone, an e-mail): at least 24 px tall, its text centred in it. */
const tapTarget = { display: 'inline-flex', alignItems: 'center' } as const;

/** Fields the form draws by hand (pickers, the stay's dates); the rest come from the description. */
const SPECIAL = new Set(['objectId', 'demandId', 'checkIn', 'checkOut', 'duration', 'bookingDate', 'ownerPaymentDate', 'totalPaymentDeposit', 'finalComission']);
const CLIENT = RESERVATION_FIELDS.filter((d) => d.group === 'client');
/** An amount's "done" flag (`totalDone`, `prepaymentCashDone` …), drawn next to the amount. */
const DONE_OF = new Map(RESERVATION_FIELDS.filter((d) => d.type === 'boolean' && RESERVATION_FIELDS.some((m) => `${m.name}Done` === d.name)).map((d) => [d.name.slice(0, -4), d]));
const PAIRED = new Set([...DONE_OF.values()].map((d) => d.name));
const OTHER = RESERVATION_FIELDS.filter((d) => d.group !== 'client');

function listOf(d: TReservationFieldDescription, r: TReservationAnswer): TSelectOption[] {
  if (d.list === 'stages') return r.stageOptions;
  if (d.list === 'sources') return r.sourceOptions;
  if (d.list === 'ownerPaymentTypes') return r.ownerPaymentTypeOptions;
  return [];
}

function toForm(r: TReservationAnswer): Form {
  const fields: Drafts = {};
  for (const d of OTHER) fields[d.name] = d.type === 'date' ? ((r[d.name] as string | null) ?? null) : toDraft(d.type, r[d.name]);
  for (const d of CLIENT) fields[`client.${d.name}`] = toDraft(d.type, r.client[d.name]);
  return {
    fields,
    object: r.object ? { id: r.object.id, text: `#${r.object.referenceNumber}${r.object.title ? ` ${r.object.title}` : ''}` } : null,
    account: r.clientAccountId ? { id: r.clientAccountId, text: r.clientAccount ?? `#${r.clientAccountId}` } : null,
    lead: r.demandId ? { id: r.demandId as number, text: r.demand ?? `#${r.demandId as number}` } : null,
    saveClientAsAccount: false,
  };
}

/** The wire value of a described field from the form. */
function wire(d: TReservationFieldDescription, f: Form, r: TReservationAnswer) {
  const key = d.group === 'client' ? `client.${d.name}` : d.name;
  if (d.type === 'date') return f.fields[key] || null;
  return toWire(d.type, f.fields[key] ?? null, listOf(d, r));
}

/** /Reservations/Add (create; ?objectId=, ?checkIn=, ?demandId= preset it), /Reservations/{id} (view), /Reservations/Edit/{id} (edit). */
export const ReservationPage = keyedByAddress(ReservationPageScreen);

function ReservationPageScreen() {
  const params = useParams();
  const location = useLocation();
  const [search] = useSearchParams();
  const id = params.id ? Number(params.id) : null;
  const mode: Mode = id == null ? 'create' : location.pathname.toLowerCase().startsWith('/reservations/edit') ? 'edit' : 'view';
  const valid = id == null || (Number.isInteger(id) && id > 0 && id <= 2147483647);
  const preset = {
    ...(Number(search.get('objectId')) > 0 ? { objectId: Number(search.get('objectId')) } : {}),
    ...(Number(search.get('demandId')) > 0 ? { demandId: Number(search.get('demandId')) } : {}),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(search.get('checkIn') ?? '') ? { checkIn: search.get('checkIn')! } : {}),
  };
  const blank = useQuery({ ...blankReservationQuery(preset), enabled: id == null });
  const stored = useQuery({ ...reservationQuery(id ?? 0), enabled: id != null && valid, staleTime: mode === 'view' ? JUST_READ_MS : 0 });
  const q = id == null ? blank : stored;
  const gone = q.error instanceof ApiError && q.error.status === 404;
  const r = id == null ? undefined : stored.data;
  const guest = r ? r.clientAccount || [r.client.lastName, r.client.firstName].filter(Boolean).join(' ') : '';
  useRecordOpened('reservation', id ?? 0, r ? [`#${r.reservationNumber || id}`, guest, r.object ? `#${r.object.referenceNumber}` : ''].filter(Boolean).join(' · ') : null, gone);
  if (!valid || gone) return <RecordNotFound testId="reservation-not-found" />;
  if (q.isError && !q.data)
    return (
      <Alert color="red" data-testid="reservation-error">
        {describeError(q.error).message}
      </Alert>
    );
  if (!q.data || (mode !== 'view' && !q.isFetchedAfterMount))
    return <PageLoading />;
  return <ReservationForm key={`${mode}-${q.data.id}-${q.data.version}`} reservation={q.data} mode={mode} />;
}

function ReservationForm({ reservation: r, mode }: { reservation: TReservationAnswer; mode: Mode }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const client = useQueryClient();
  const carryKey = `reservation-${r.id}`;
  const [form, setForm] = useState<Form>(() => takeCarriedForm<Form>(carryKey) ?? toForm(r));
  // The booking as loaded: what this user changed is measured against it when someone else saves first.
  const [loaded] = useState<Form>(() => toForm(r));
  // Changes not saved ask before they are left behind (a reload, Back, a link); not in view mode.
  const leaveGuard = useFormLeaveGuard(mode !== 'view' && JSON.stringify(form) !== JSON.stringify(loaded));
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const readOnly = mode === 'view';
  const label = (name: string) => t(`fields.reservation.${name}`);
  const setField = (name: string, v: Draft) => setForm((f) => ({ ...f, fields: { ...f.fields, [name]: v } }));

  // What the server computes, shown live while typing.
  const num = (name: string) => {
    const v = toWire('currency', form.fields[name] ?? null);
    return typeof v === 'number' ? v : null;
  };
  const typedNights = toWire('number', form.fields.duration ?? null);
  const nights = typeof typedNights === 'number' && typedNights > 0 ? typedNights : null;
  const checkIn = (form.fields.checkIn as string | null) || null;
  // A check-out typed that gives no stay (on or before the check-in, or before one is typed) is
  // kept as typed, with its error, until the dates or the nights make a stay again.
  const [typedCheckOut, setTypedCheckOut] = useState<string | null>(null);
  const checkOut = typedCheckOut ?? (typedNights === 0 ? checkIn : checkOutOf(checkIn, nights));
  // What is wrong with the stay as typed, said at its field at once (the server refuses the same).
  const stayErrors: Record<string, string> = {};
  if (typedCheckOut && checkIn && nightsBetween(checkIn, typedCheckOut) <= 0) stayErrors.checkOut = t('reservations.checkOutBeforeCheckIn');
  if (typeof typedNights === 'number' && typedNights < 1) stayErrors.duration = t('reservations.tooShort');
  if (typeof typedNights === 'number' && typedNights > RESERVATION_MAX_NIGHTS) stayErrors.duration = t('reservations.tooLong', { max: RESERVATION_MAX_NIGHTS });
  const stayError = (name: string) => stayErrors[name] ?? errors[name];
  const setCheckIn = (v: string | null) => {
    setField('checkIn', v);
    // A check-out typed before the check-in was: the nights follow from it once it is after it.
    if (typedCheckOut && v && nightsBetween(v, typedCheckOut) > 0) {
      setField('duration', nightsBetween(v, typedCheckOut));
      setTypedCheckOut(null);
    }
  };
  const setCheckOut = (v: string | null) => {
    if (!v) return;
    if (checkIn && nightsBetween(checkIn, v) > 0) {
      setField('duration', nightsBetween(checkIn, v));
      setTypedCheckOut(null);
    } else setTypedCheckOut(v);
  };
  const setNights = (v: Draft) => {
    setField('duration', v);
    // Nights typed: the check-out follows from them again.
    setTypedCheckOut(null);
  };
  const money = Object.fromEntries(['total', 'prepaymentCash', 'prepaymentBank', 'prepaymentInvoice', 'restCash', 'restBank', 'restInvoice', 'comission', 'comission3rdParty'].map((k) => [k, num(k)]));
  const deposit = depositOf(money);
  const finalComission = finalComissionOf(money.comission, money.comission3rdParty);
  const unallocated = money.total != null ? unallocatedOf(money) : null;
  const toOwner = num('paymentToOwner');
  const ownerOver = toOwner != null && money.total != null ? Math.round((toOwner - money.total) * 100) / 100 : 0;

  // Saved from the foot of a long form (a phone): the refusal is brought into view, at its first
  // field when that is on the form, else the message over the form.
  const showRefusal = (fields: string[]) =>
    requestAnimationFrame(() => {
      const input = fields.map((k) => document.querySelector<HTMLElement>(`[data-testid="reservation-${k}"]`)).find(Boolean);
      if (input) input.focus();
      else document.querySelector('[data-testid="reservation-form-error"], [data-testid="reservation-field-errors"]')?.scrollIntoView({ block: 'center' });
    });

  const changeKeys = useChangeKeys();
  const save = async () => {
    if (busy) return;
    // A time box holding no time keeps the time before it: saving would drop what was typed.
    if (focusInvalidEntry()) return;
    // A stay that is none (its error is already at the field): nothing is sent.
    const badStay = Object.keys(stayErrors)[0] ?? (typedCheckOut && !checkIn ? 'checkIn' : undefined);
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
    setBusy(true);
    try {
      const body: Record<string, unknown> = { ...(r.id != null ? { id: r.id, version: r.version } : {}) };
      for (const d of OTHER) if (!d.readOnly && d.name !== 'objectId' && d.name !== 'demandId') body[d.name] = wire(d, form, r);
      body.objectId = form.object?.id ?? null;
      body.demandId = form.lead?.id ?? null;
      body.client = Object.fromEntries(CLIENT.map((d) => [d.name, wire(d, form, r)]));
      body.clientAccountId = form.account?.id ?? null;
      if (form.saveClientAsAccount && !form.account) body.saveClientAsAccount = true;
      // Saved again after a lost answer, the same content is the same change: no second booking.
      const saved = await saveReservation(body, changeKeys.keyFor(body));
      changeKeys.renew();
      client.setQueryData(reservationKeys.one(saved.id!), saved);
      void client.invalidateQueries({ queryKey: reservationKeys.lists });
      showBannerAfterNavigation('success', t('reservations.ui.saved'));
      leaveGuard.release();
      navigate(`/Reservations/${saved.id}`, { replace: mode === 'create' });
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.problem.current) {
        const current = e.problem.current as TReservationAnswer;
        const flat = (f: Form) => ({ ...f.fields, object: f.object, account: f.account, lead: f.lead, saveClientAsAccount: f.saveClientAsAccount });
        const m = mergeOnConflict(flat(loaded), flat(form), flat(toForm(current)));
        if (m.changed.length > m.lost.length) {
          const { object, account, lead, saveClientAsAccount, ...fields } = m.next;
          carryForm<Form>(carryKey, { fields: fields as Drafts, object: object as Picked, account: account as Picked, lead: lead as Picked, saveClientAsAccount: Boolean(saveClientAsAccount) });
        }
        client.setQueryData(reservationKeys.one(current.id!), { ...current, stageOptions: r.stageOptions, sourceOptions: r.sourceOptions, ownerPaymentTypeOptions: r.ownerPaymentTypeOptions });
        const fieldName = (k: string) =>
          k === 'object' ? label('objectId') : k === 'account' ? label('clientAccount') : k === 'lead' ? t('fields.reservation.demandId') : label(k.replace(/^client\./, ''));
        showBanner('warning', conflictMessage(t, e.problem.title, m, fieldName));
      } else if (e instanceof ApiError && e.status === 400) {
        setErrors(e.fieldErrors);
        setError(Object.keys(e.fieldErrors).length ? null : describeError(e).message);
        showRefusal(Object.keys(e.fieldErrors));
      } else {
        setError(describeError(e).message);
        showRefusal([]);
      }
    } finally {
      setBusy(false);
    }
  };

  const remove = () =>
    modals.openConfirmModal({
      title: t('reservations.ui.deleteTitle'),
      children: <Text size="sm">{t('reservations.ui.deleteConfirm', { number: r.reservationNumber })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      onConfirm: async () => {
        try {
          await deleteReservation(r.id!);
          void client.invalidateQueries({ queryKey: reservationKeys.all });
          showBannerAfterNavigation('success', t('reservations.ui.deleted'));
          leaveGuard.release();
          navigate('/Reservations');
        } catch (e) {
          setError(describeError(e).message);
        }
      },
    });

  // A value as read: its line breaks kept, and a long e-mail or link wrapped inside its column
  // (two columns on a phone) rather than over the next one.
  const shown = (name: string, text: ReactNode, testId = `reservation-${name}`) => (
    <div key={name} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label(name)}
      </Text>
      <Text size="sm" data-testid={testId} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {text || '—'}
      </Text>
    </div>
  );

  /** One described field: its input in create and edit, its value in view. */
  const field = (d: TReservationFieldDescription, alone = false): ReactNode => {
    if (!alone && PAIRED.has(d.name)) return null;
    const key = d.group === 'client' ? `client.${d.name}` : d.name;
    const value = form.fields[key] ?? null;
    const wide = d.type === 'textarea' ? { gridColumn: '1 / -1' } : undefined;
    const done = alone ? undefined : DONE_OF.get(d.name);
    if (done) {
      // The amount with its done flag beneath it.
      if (readOnly)
        return shown(
          d.name,
          <>
            {formatMoney2(r[d.name] as number | null) || '—'}{' '}
            {r[done.name] === true && (
              <Badge color="green" variant="light" size="sm" data-testid={`reservation-${done.name}`}>
                {label(done.name)}
              </Badge>
            )}
          </>,
        );
      return (
        <Stack key={key} gap={6}>
          {field(d, true)}
          {field(done, true)}
        </Stack>
      );
    }
    if (readOnly) {
      const v = d.group === 'client' ? r.client[d.name] : r[d.name];
      // The guest's phone and e-mail to tap, as on an account's page.
      const phones = key === 'client.phone' ? phoneLinks(v as string | null) : [];
      const mailto = key === 'client.email' ? mailtoOf(v as string | null) : null;
      const text =
        d.name === 'externalLink' && v ? (
          <Anchor href={String(v)} target="_blank" rel="noopener noreferrer">
            {String(v)}
          </Anchor>
        ) : phones.length ? (
          <Stack gap={2} component="span">
            {phones.map((p, i) =>
              p.href ? (
                <Anchor key={i} href={p.href} size="sm" mih={24} style={tapTarget}>
                  {p.text}
                </Anchor>
              ) : (
                <span key={i}>{p.text}</span>
              ),
            )}
          </Stack>
        ) : mailto ? (
          <Anchor href={mailto} size="sm" mih={24} style={tapTarget}>
            {String(v)}
          </Anchor>
        ) : d.type === 'currency' ? (
          formatMoney2(v as number | null)
        ) : (
          formatFieldValue(d.type, v, t, listOf(d, r))
        );
      return (
        <div key={key} style={{ ...wide, minWidth: 0 }}>
          {shown(d.name, text, `reservation-${key}`)}
        </div>
      );
    }
    if (d.type === 'date')
      return <DateField key={key} label={label(d.name)} value={(value as string | null) || null} onChange={(v) => setField(key, v)} error={errors[key]} data-testid={`reservation-${key}`} />;
    if (d.name === 'arrivalTimePlanned' || d.name === 'arrivalTimeActual')
      return <TimeField key={key} label={label(d.name)} value={String(value ?? '')} onChange={(v) => setField(key, v)} error={errors[key]} data-testid={`reservation-${key}`} />;
    return (
      <div key={key} style={wide}>
        <FieldInput
          type={d.type}
          label={label(d.name)}
          value={value}
          onChange={(v) => setField(key, v)}
          error={errors[key]}
          options={listOf(d, r)}
          required={d.required}
          maxLength={d.max}
          min={d.min}
          max={d.max}
          step={d.step}
          integer={d.integer}
          minRows={2}
          testId={`reservation-${key}`}
          autoFocus={false}
        />
      </div>
    );
  };

  const computed = (name: string, value: string, testId: string) => (
    <div key={name}>
      <Text size="xs" c="dimmed">
        {label(name)}
      </Text>
      <Text size="sm" fw={600} data-testid={testId}>
        {value}
      </Text>
    </div>
  );

  const stay = (
    <>
      {readOnly ? (
        shown(
          'objectId',
          r.object ? (
            <Anchor component={Link} to={`/Objects/View/${r.object.id}`}>
              #{r.object.referenceNumber}
              {r.object.websiteCode ? ` · ${r.object.websiteCode}` : ''}
              {r.object.title ? ` · ${r.object.title}` : ''}
            </Anchor>
          ) : null,
          'reservation-object',
        )
      ) : (
        <SearchPicker
          key="objectId"
          label={label('objectId')}
          value={form.object}
          onChange={(v) => setForm((f) => ({ ...f, object: v }))}
          search={searchShortLetObjects}
          queryKey="object-str"
          testId="reservation-object-picker"
          required
          error={errors.objectId}
        />
      )}
      {readOnly ? (
        shown('checkIn', formatDate(r.checkIn as string | null))
      ) : (
        <DateField key="checkIn" label={label('checkIn')} value={checkIn} onChange={setCheckIn} error={errors.checkIn} required data-testid="reservation-checkIn" />
      )}
      {readOnly ? (
        shown('duration', String(r.duration ?? ''))
      ) : (
        <FieldInput
          type="number"
          label={label('duration')}
          value={form.fields.duration ?? null}
          onChange={setNights}
          error={stayError('duration')}
          options={[]}
          required
          integer
          min={1}
          max={RESERVATION_MAX_NIGHTS}
          testId="reservation-duration"
          autoFocus={false}
        />
      )}
      {readOnly ? (
        shown('checkOut', formatDate(r.checkOut as string | null))
      ) : (
        <DateField
          key="checkOut"
          label={label('checkOut')}
          description={t('reservations.ui.checkOutHint')}
          value={checkOut}
          // The calendar offers the days after the check-in; a day typed before it is kept, with its error
          // (a minimum date would have dropped it without a word).
          excludeDate={(day) => checkIn != null && String(day).slice(0, 10) <= checkIn}
          onChange={setCheckOut}
          error={stayError('checkOut')}
          clearable={false}
          data-testid="reservation-checkOut"
        />
      )}
      {OTHER.filter((d) => d.group === 'stay' && !SPECIAL.has(d.name)).map((d) => field(d))}
    </>
  );

  const clientSection = (
    <>
      {readOnly ? (
        shown(
          'clientAccount',
          r.clientAccountId ? (
            <Anchor component={Link} to={`/Accounts/View/${r.clientAccountId}`}>
              {r.clientAccount}
            </Anchor>
          ) : null,
          'reservation-client-account',
        )
      ) : (
        <div style={{ gridColumn: '1 / -1' }}>
          <SearchPicker
            label={t('reservations.ui.pickAccount')}
            value={form.account}
            onChange={(v) => setForm((f) => ({ ...f, account: v, saveClientAsAccount: false }))}
            search={searchAccounts}
            queryKey="account"
            testId="reservation-account-picker"
          />
          {!form.account && (
            <Checkbox
              mt="xs"
              label={t('reservations.ui.saveAsAccount')}
              checked={form.saveClientAsAccount}
              onChange={(e) => setForm((f) => ({ ...f, saveClientAsAccount: e.currentTarget.checked }))}
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
      {CLIENT.map((d) => field(d))}
    </>
  );

  const booking = (
    <>
      {OTHER.filter((d) => d.group === 'booking' && !SPECIAL.has(d.name)).map((d) => field(d))}
      {readOnly ? shown('bookingDate', formatDate(r.bookingDate as string | null)) : field(RESERVATION_FIELDS.find((d) => d.name === 'bookingDate')!)}
      {readOnly ? (
        shown(
          'demandId',
          r.demandId ? (
            <Anchor component={Link} to={`/Leads/View/${r.demandId as number}`}>
              {r.demand}
            </Anchor>
          ) : null,
        )
      ) : (
        <SearchPicker label={label('demandId')} value={form.lead} onChange={(v) => setForm((f) => ({ ...f, lead: v }))} search={searchLeadsQuick} queryKey="lead" testId="reservation-lead-picker" />
      )}
    </>
  );

  const sections: Record<string, ReactNode> = {
    stay,
    client: clientSection,
    booking,
    payment: (
      <>
        {OTHER.filter((d) => d.group === 'payment' && !SPECIAL.has(d.name)).map((d) => field(d))}
        {computed('totalPaymentDeposit', formatMoney2(readOnly ? (r.totalPaymentDeposit as number) : deposit), 'reservation-deposit')}
        {!readOnly && unallocated != null && unallocated !== 0 && (
          <Text size="sm" c={unallocated < 0 ? 'red.8' : 'dimmed'} data-testid="reservation-unallocated" style={{ gridColumn: '1 / -1' }}>
            {t(unallocated < 0 ? 'reservations.ui.overAllocated' : 'reservations.ui.unallocated', { amount: formatMoney2(Math.abs(unallocated)) })}
          </Text>
        )}
      </>
    ),
    owner: (
      <>
        {OTHER.filter((d) => d.group === 'owner' && !SPECIAL.has(d.name)).map((d) => field(d))}
        {/* Possible (an owner paid for extras), but far more often a typing mistake (10 000 for 1 000). */}
        {!readOnly && ownerOver > 0 && (
          <Text size="sm" c="red.8" data-testid="reservation-owner-over" style={{ gridColumn: '1 / -1' }}>
            {t('reservations.ui.ownerOverTotal', { amount: formatMoney2(ownerOver) })}
          </Text>
        )}
        {readOnly ? shown('ownerPaymentDate', formatDate(r.ownerPaymentDate as string | null)) : field(RESERVATION_FIELDS.find((d) => d.name === 'ownerPaymentDate')!)}
      </>
    ),
    commission: (
      <>
        {OTHER.filter((d) => d.group === 'commission' && !SPECIAL.has(d.name)).map((d) => field(d))}
        {computed('finalComission', formatMoney2(readOnly ? (r.finalComission as number) : finalComission), 'reservation-final-commission')}
      </>
    ),
    notes: <>{OTHER.filter((d) => d.group === 'notes').map((d) => field(d))}</>,
  };

  const attention = readOnly && Boolean(r.problem || r.awaiting);
  return (
    <Stack gap="sm" data-testid="reservation-page" data-mode={mode}>
      <RecordToolbar
        title={
          <Group gap="xs">
            <Title order={2} size="h3">
              {mode === 'create' ? t('reservations.ui.new') : t('reservations.ui.title', { number: r.reservationNumber })}
            </Title>
            {mode !== 'create' && <Badge variant="light">{r.stageOptions.find((o) => o.value === r.reservationStage)?.text}</Badge>}
          </Group>
        }
        mode={mode}
        backText={t('reservations.ui.back')}
        onBack={goBack}
        route="/Reservations"
        id={r.id}
        onDelete={remove}
        onSave={() => void save()}
        busy={busy}
        error={error}
        testId="reservation"
      />
      {!readOnly && Object.keys(errors).length > 0 && (
        <Alert color="red" data-testid="reservation-field-errors">
          {/* Each refusal by its field's name: two messages run together named neither field. */}
          <Stack gap={2}>
            {Object.entries(errors).map(([k, m]) => {
              const name = i18n.exists(`fields.reservation.${k}`) ? label(k) : '';
              return (
                <Text key={k} size="sm">
                  {name ? `${name}: ${m}` : m}
                </Text>
              );
            })}
          </Stack>
        </Alert>
      )}
      {attention && (
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
      {/* On a phone the form is some 3 700 px tall: its buttons at its foot too, as the income form has them. */}
      {!readOnly && (
        <Group justify="space-between" data-testid="reservation-foot">
          {mode === 'edit' ? (
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={remove} data-testid="reservation-delete-bottom">
              {t('common.delete')}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="xs">
            <Button variant="default" onClick={() => (mode === 'edit' ? navigate(`/Reservations/${r.id}`) : goBack())} data-testid="reservation-cancel-bottom">
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void save()} loading={busy} data-testid="reservation-save-bottom">
              {t('common.save')}
            </Button>
          </Group>
        </Group>
      )}
      {mode !== 'create' && (
        <RecordStamps createdOn={r.createdOn} createdBy={r.createdBy} modifiedOn={r.modifiedOn} modifiedBy={r.modifiedBy} testId="reservation-stamps" />
      )}
    </Stack>
  );
}
