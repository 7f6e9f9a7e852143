import { Anchor, Badge, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TReservationFieldDescription } from '@crm/contract/reservation-fields';
import { DescribedInput } from '../../../kit/field-group.tsx';
import { TimeField } from '../../../components/fields/time-field.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { formatFieldValue } from '../../../components/fields/field-values.ts';
import { formatMoney2 } from '../../../lib/format.ts';
import { mailtoOf, phoneLinks } from '../../../lib/contact-links.ts';
import { DONE_OF, PAIRED, listOf, type Sheet } from '../reservation-form.ts';

/** A link a finger taps (a phone, an e-mail): at least 24 px tall, its text centred in it. */
const tapTarget = { display: 'inline-flex', alignItems: 'center' } as const;

/**
 * A value as read: its line breaks kept, and a long e-mail or link wrapped inside its column (two
 * columns on a phone) rather than over the next one.
 */
export function Shown({ name, children, testId = `reservation-${name}` }: { name: string; children: ReactNode; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {t(`fields.reservation.${name}`)}
      </Text>
      <Text size="sm" data-testid={testId} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </div>
  );
}

/** What the server computes (the deposit, the final commission), shown live. */
export function Computed({ name, value, testId }: { name: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="xs" c="dimmed">
        {t(`fields.reservation.${name}`)}
      </Text>
      <Text size="sm" fw={600} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** A described value as read: the guest's phones and e-mail to tap, a link to open, money, a choice's text. */
function ReadValue({ s, d, fieldKey }: { s: Sheet; d: TReservationFieldDescription; fieldKey: string }) {
  const { t } = useTranslation();
  const v = d.group === 'client' ? s.r.client[d.name] : s.r[d.name];
  const phones = fieldKey === 'client.phone' ? phoneLinks(v as string | null) : [];
  const mailto = fieldKey === 'client.email' ? mailtoOf(v as string | null) : null;
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
      formatFieldValue(d.type, v, t, listOf(d, s.r))
    );
  return (
    <div style={{ ...(d.type === 'textarea' ? { gridColumn: '1 / -1' } : undefined), minWidth: 0 }}>
      <Shown name={d.name} testId={`reservation-${fieldKey}`}>
        {text}
      </Shown>
    </div>
  );
}

/** One described field: its input in create and edit, its value in view; an amount with its "done" flag beneath it. */
export function ReservationField({ s, d, alone = false }: { s: Sheet; d: TReservationFieldDescription; alone?: boolean }) {
  const { t } = useTranslation();
  if (!alone && PAIRED.has(d.name)) return null;
  const key = d.group === 'client' ? `client.${d.name}` : d.name;
  const label = t(`fields.reservation.${d.name}`);
  const done = alone ? undefined : DONE_OF.get(d.name);
  if (done && s.readOnly)
    return (
      <Shown name={d.name}>
        {formatMoney2(s.r[d.name] as number | null) || '—'}{' '}
        {s.r[done.name] === true && (
          <Badge color="green" variant="light" size="sm" data-testid={`reservation-${done.name}`}>
            {t(`fields.reservation.${done.name}`)}
          </Badge>
        )}
      </Shown>
    );
  if (done)
    return (
      <Stack gap={6}>
        <ReservationField s={s} d={d} alone />
        <ReservationField s={s} d={done} alone />
      </Stack>
    );
  if (s.readOnly) return <ReadValue s={s} d={d} fieldKey={key} />;
  const value = s.form.fields[key] ?? null;
  const common = { label, error: s.errors[key], 'data-testid': `reservation-${key}` };
  if (d.type === 'date') return <DateField {...common} value={(value as string | null) || null} onChange={(v) => s.setField(key, v)} />;
  if (d.name === 'arrivalTimePlanned' || d.name === 'arrivalTimeActual') return <TimeField {...common} value={String(value ?? '')} onChange={(v) => s.setField(key, v)} />;
  return (
    <div style={d.type === 'textarea' ? { gridColumn: '1 / -1' } : undefined}>
      <DescribedInput d={{ ...d, name: key }} f={{ drafts: s.form.fields, set: s.setField, errors: s.errors }} label={label} options={listOf(d, s.r)} required={d.required} minRows={2} testId={`reservation-${key}`} />
    </div>
  );
}
