import { Alert, Modal, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TDealCard, TDealSaved } from '@crm/contract';
import { DEAL_STAGE_NEEDS, dealTextKey } from '@crm/contract/deal-fields';
import { DateField } from '../../../components/fields/date-field.tsx';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { ApiError } from '../../../lib/api.ts';
import { moveDeal, type StageData } from '../api/deals.ts';
import { FormButtons } from '../../../components/form-buttons.tsx';

type Need = (typeof DEAL_STAGE_NEEDS)[number][number];

/** What moving this card to `stage` needs that the deal has not got yet (DEAL_STAGE_NEEDS); none for most stages. */
export const stageNeeds = (card: TDealCard, stage: number): Need[] => (DEAL_STAGE_NEEDS[stage] ?? []).filter((n) => card[n] == null);

type Props = {
  card: TDealCard;
  stage: number;
  /** The stage as the card's type names it. */
  stageName: string;
  onClose: () => void;
  onMoved: (saved: TDealSaved) => void;
  /** Anything but what the fields say (a 409, a lost connection): the board says it. */
  onFailed: (err: unknown) => void;
};

/**
 * The board's move to a stage that needs data (the deposit's amount and date, the contract's
 * signing date), asked in the same move: the deal moves with them, or the server says under each
 * field what is missing, and nothing moves.
 */
export function StageNeedsDialog({ card, stage, stageName, onClose, onMoved, onFailed }: Props) {
  const { t } = useTranslation();
  const needs = stageNeeds(card, stage);
  const [data, setData] = useState<StageData>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const label = (n: Need) => t(dealTextKey(`fields.deal.${n}`, card.dealType));
  const set = (patch: StageData) => setData((d) => ({ ...d, ...patch }));
  const others = Object.entries(errors).filter(([k]) => !(needs as string[]).includes(k));

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (focusInvalidEntry(e.currentTarget)) return;
    setBusy(true);
    try {
      onMoved(await moveDeal(card.id, card.version, stage, data));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
      else onFailed(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('deals.ui.stageNeeds.title', { id: card.id, stage: stageName })} size="md" closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="deal-stage-needs">
        <Stack gap="sm">
          <Text size="sm">{t('deals.ui.stageNeeds.intro')}</Text>
          {others.length > 0 && (
            // What the move was refused for beyond this dialog's fields (a date of the deal out of order): said here, to be fixed on the deal.
            <Alert color="red" className="pre-line" data-testid="deal-stage-needs-other">
              {others.map(([k, msg]) => `${t(dealTextKey(`fields.deal.${k}`, card.dealType), { defaultValue: k })}: ${msg}`).join('\n')}
            </Alert>
          )}
          {needs.map((n) =>
            n === 'deposit' ? (
              <DecimalField
                key={n}
                label={label(n)}
                required
                data-autofocus
                scale={2}
                unit="€"
                padDecimals
                min={0}
                value={data.deposit ?? ''}
                onChange={(v) => set({ deposit: v === '' ? null : v })}
                error={errors[n]}
                data-testid={`deal-stage-needs-${n}`}
              />
            ) : (
              <DateField
                key={n}
                label={label(n)}
                required
                value={data[n] ?? null}
                onChange={(v) => set({ [n]: v })}
                error={errors[n]}
                data-testid={`deal-stage-needs-${n}`}
              />
            ),
          )}
          <FormButtons onCancel={onClose} label={t('deals.ui.stageNeeds.move')} loading={busy} cancelDisabled={busy} testId="deal-stage-needs-move" cancelTestId="deal-stage-needs-cancel" gap="xs" />
        </Stack>
      </form>
    </Modal>
  );
}
