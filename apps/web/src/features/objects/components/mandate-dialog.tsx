// A property's mandate (εντολή ανάθεσης) in a dialog: add or change, with the law's limits said by
// the server under the date they concern, its owners, exceptions and signed documents.
import { Alert, Button, Divider, Group, Modal, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { LinkKind } from '@crm/contract/constants';
import type { TMandate, TMandateEdit, TObjectAccount } from '@crm/contract';
import { MANDATE_KINDS, type TMandateKind } from '@crm/contract/mandate-fields';
import { OWNER_RELATION } from '@crm/contract/object-fields';
import { LabelledChoice } from '../../../components/culture-choice.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';
import { RecordFiles } from '../../../components/record-files.tsx';
import { ApiError } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { deleteMandate, mandateKeys, saveMandate } from '../api/mandates.ts';
import { MandateExceptions, MandateOwners, type TExceptionDraft, type TOwnerDraft } from './mandate-form-parts.tsx';
import { FailureAlert } from '../../../components/failure-alert.tsx';

type Draft = {
  kind: TMandateKind;
  startDate: string | null;
  endDate: string | null;
  extendedUntil: string | null;
  askingPrice: number | '';
  commissionPercent: number | '';
  commissionAmount: number | '';
  notes: string;
  owners: TOwnerDraft[];
  exceptions: TExceptionDraft[];
};

const toDraft = (m: TMandate | null, owners: TObjectAccount[], askingPrice: number | null): Draft =>
  m
    ? {
        kind: m.kind,
        startDate: m.startDate,
        endDate: m.endDate,
        extendedUntil: m.extendedUntil,
        askingPrice: m.askingPrice ?? '',
        commissionPercent: m.commissionPercent ?? '',
        commissionAmount: m.commissionAmount ?? '',
        notes: m.notes ?? '',
        owners: m.owners.map((o) => ({ ...o, taxOffice: o.taxOffice ?? '' })),
        exceptions: m.exceptions.map((e) => ({ name: e.name, note: e.note ?? '' })),
      }
    : {
        kind: 'exclusive',
        startDate: null,
        endDate: null,
        extendedUntil: null,
        askingPrice: askingPrice ?? '',
        commissionPercent: '',
        commissionAmount: '',
        notes: '',
        owners: owners.filter((o) => o.relation === OWNER_RELATION).map((o) => ({ accountId: o.accountId, name: o.account ?? `#${o.accountId}`, taxOffice: '' })),
        exceptions: [],
      };

const orNull = (v: number | '') => (v === '' ? null : v);

type Props = {
  objectId: number;
  /** The mandate to change; null: a new one. */
  mandate: TMandate | null;
  /** The property's contacts: a new mandate starts with its owners. */
  contacts: TObjectAccount[];
  askingPrice: number | null;
  opened: boolean;
  onClose: () => void;
};

export function MandateDialog(p: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={p.opened} onClose={p.onClose} size="xl" fullScreen={false} title={t(p.mandate ? 'mandates.edit' : 'mandates.add')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      {p.opened && <MandateForm {...p} key={p.mandate ? `${p.mandate.id}:${p.mandate.version}` : 'new'} />}
    </Modal>
  );
}

function MandateForm({ objectId, mandate, contacts, askingPrice, onClose }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [d, setD] = useState<Draft>(() => toDraft(mandate, contacts, askingPrice));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Draft>) => {
    setD((x) => ({ ...x, ...patch }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !(k in patch))));
  };
  const done = async () => {
    await qc.invalidateQueries({ queryKey: mandateKeys.all });
    onClose();
  };
  const fail = (err: unknown) => {
    if (err instanceof ApiError && err.status === 400 && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
    else setFormError(describeError(err).message);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    const missing: Record<string, string> = {};
    if (!d.startDate) missing.startDate = t('validation.required');
    if (!d.endDate) missing.endDate = t('validation.required');
    if (Object.keys(missing).length) return setErrors(missing);
    const body: TMandateEdit = {
      id: mandate?.id ?? null,
      version: mandate?.version ?? null,
      objectId,
      kind: d.kind,
      startDate: d.startDate!,
      endDate: d.endDate!,
      extendedUntil: d.extendedUntil,
      askingPrice: orNull(d.askingPrice),
      commissionPercent: orNull(d.commissionPercent),
      commissionAmount: orNull(d.commissionAmount),
      notes: d.notes.trim() || null,
      owners: d.owners.map((o) => ({ accountId: o.accountId, taxOffice: o.taxOffice.trim() || null })),
      exceptions: d.exceptions.map((x) => ({ name: x.name, note: x.note.trim() || null })),
    };
    setSaving(true);
    setFormError(null);
    try {
      await saveMandate(body);
      await done();
    } catch (err) {
      fail(err);
    } finally {
      setSaving(false);
    }
  };

  const remove = () =>
    confirmAction(t, {
      title: t('mandates.deleteConfirm'),
      testId: 'mandate-delete-confirm',
      onConfirm: async () => {
        try {
          await deleteMandate(mandate!);
          await done();
        } catch (err) {
          fail(err);
        }
      },
    });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="mandate-form">
      <Stack gap="md">
        <FailureAlert failure={formError} testId="mandate-form-error" />
        <LabelledChoice
          id="mandate-kind-label"
          label={t('mandates.field.kind')}
          value={d.kind}
          onChange={(kind) => set({ kind })}
          data={MANDATE_KINDS.map((k) => ({ value: k, label: t(`mandates.kind.${k}`) }))}
          alignStart
          testId="mandate-kind"
        >
          {d.kind === 'exclusive' && (
            <Text size="xs" c="dimmed">
              {t('mandates.law.hint')}
            </Text>
          )}
        </LabelledChoice>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <DateField label={t('mandates.field.startDate')} required value={d.startDate} onChange={(v) => set({ startDate: v })} error={errors.startDate} data-testid="mandate-start" />
          <DateField label={t('mandates.field.endDate')} required value={d.endDate} onChange={(v) => set({ endDate: v })} error={errors.endDate} data-testid="mandate-end" />
          <DateField label={t('mandates.field.extendedUntil')} value={d.extendedUntil} onChange={(v) => set({ extendedUntil: v })} error={errors.extendedUntil} data-testid="mandate-extended" />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <DecimalField label={t('mandates.field.askingPrice')} scale={2} unit="€" min={0} value={d.askingPrice} onChange={(v) => set({ askingPrice: v })} error={errors.askingPrice} data-testid="mandate-price" />
          <DecimalField label={t('mandates.field.commissionPercent')} scale={2} unit="%" min={0} max={100} grouping={false} value={d.commissionPercent} onChange={(v) => set({ commissionPercent: v })} error={errors.commissionPercent} data-testid="mandate-commission-percent" />
          <DecimalField label={t('mandates.field.commissionAmount')} scale={2} unit="€" min={0} value={d.commissionAmount} onChange={(v) => set({ commissionAmount: v })} error={errors.commissionAmount} data-testid="mandate-commission-amount" />
        </SimpleGrid>
        <MandateOwners owners={d.owners} onChange={(owners) => set({ owners })} error={errors.owners} />
        <MandateExceptions items={d.exceptions} onChange={(exceptions) => set({ exceptions })} />
        {Object.keys(errors).some((k) => k.startsWith('exceptions')) && <Alert color="red">{Object.entries(errors).filter(([k]) => k.startsWith('exceptions')).map(([, v]) => v).join(' ')}</Alert>}
        <Textarea label={t('mandates.field.notes')} value={d.notes} maxLength={4000} autosize minRows={2} onChange={(e) => set({ notes: e.currentTarget.value })} />
        <Divider />
        <Stack gap="xs">
          <Title order={3} size="h6">
            {t('mandates.documents')}
          </Title>
          {mandate ? <RecordFiles entityType={LinkKind.Mandate} id={mandate.id} editable /> : <Text size="sm" c="dimmed">{t('mandates.documentsAfterSave')}</Text>}
        </Stack>
        <Group justify="space-between" gap="xs">
          {mandate ? (
            <Button variant="subtle" color="red" onClick={remove} data-testid="mandate-delete">
              {t('mandates.delete')}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="xs">
            <Button variant="default" onClick={onClose} disabled={saving}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={saving} data-testid="mandate-save">
              {t('mandates.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
