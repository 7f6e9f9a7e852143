import { Modal, Radio, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TPortalChannel, TPortalKind, TPortalSelection } from '@crm/contract';
import { ApiError } from '../../../lib/api.ts';
import { describeError } from '../../../lib/errors.ts';
import { PORTAL_KIND_CHOICES, createPortalChannel, updatePortalChannel } from '../api/portals.ts';
import { FormButtons } from '../../../components/form-buttons.tsx';

type Props = { opened: boolean; channel: TPortalChannel | null; onClose: () => void; onSaved: () => void };

/** A portal channel's settings: the portal (new channels only), its name, the agency ID there, which properties, on or off. */
export function PortalChannelForm({ opened, channel, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<TPortalKind>('spitogatos');
  const [name, setName] = useState('');
  const [agencyId, setAgencyId] = useState('');
  const [selection, setSelection] = useState<TPortalSelection>('all');
  const [enabled, setEnabled] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!opened) return;
    setKind(channel?.kind ?? 'spitogatos');
    setName(channel?.name ?? '');
    setAgencyId(channel?.agencyId ?? '');
    setSelection(channel?.selection ?? 'all');
    setEnabled(channel?.enabled ?? true);
    setErrors({});
  }, [opened, channel]);

  const submit = async () => {
    setBusy(true);
    setErrors({});
    try {
      const body = { name, agencyId: agencyId.trim() || null, selection, enabled };
      if (channel) await updatePortalChannel(channel.id, { ...body, version: channel.version });
      else await createPortalChannel({ ...body, kind });
      onSaved();
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length) setErrors(e.fieldErrors);
      else setErrors({ form: describeError(e).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={channel ? channel.name : t('portals.ui.add')} closeButtonProps={{ 'aria-label': t('common.close') }} data-testid="portal-channel-form">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Select
            label={t('portals.ui.kind')}
            data={PORTAL_KIND_CHOICES.map((k) => ({ value: k, label: t(`portals.kind.${k}`) }))}
            value={kind}
            onChange={(v) => v && setKind(v as TPortalKind)}
            allowDeselect={false}
            disabled={!!channel}
            data-testid="portal-kind"
          />
          <TextInput label={t('portals.ui.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} required maxLength={100} error={errors.name} data-testid="portal-name" />
          <TextInput label={t('portals.ui.agencyId')} value={agencyId} onChange={(e) => setAgencyId(e.currentTarget.value)} maxLength={50} error={errors.agencyId} data-testid="portal-agency-id" />
          <Radio.Group label={t('portals.ui.selection')} value={selection} onChange={(v) => setSelection(v as TPortalSelection)}>
            <Stack gap={6} mt={6}>
              <Radio value="all" label={t('portals.ui.selection.all')} data-testid="portal-selection-all" />
              <Radio value="chosen" label={t('portals.ui.selection.chosen')} data-testid="portal-selection-chosen" />
            </Stack>
          </Radio.Group>
          <Switch label={t('portals.ui.enabled')} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} data-testid="portal-enabled" />
          {errors.form && (
            <Text c="red.8" size="sm" role="alert">
              {errors.form}
            </Text>
          )}
          <FormButtons onCancel={onClose} label={t('portals.ui.save')} loading={busy} testId="portal-save" />
        </Stack>
      </form>
    </Modal>
  );
}
