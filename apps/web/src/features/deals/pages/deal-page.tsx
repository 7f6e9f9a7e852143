import { Group, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TSelectOption } from '@crm/contract';
import { DEAL_GROUPS, dealTextKey } from '@crm/contract/deal-fields';
import { keyedByAddress } from '../../../components/keyed-by-address.tsx';
import { RecordToolbar } from '../../../components/record-toolbar.tsx';
import { ActivityList } from '../../../components/activity-list-lazy.tsx';
import type { Draft } from '../../../components/fields/field-values.ts';
import type { Picked } from '../../../components/search-picker.tsx';
import { useGoBack } from '../../../components/go-back.ts';
import { blankDealQuery, dealQuery, type TDealAnswer } from '../api/deals.ts';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { DocumentButton } from '../../../components/document-button.tsx';
import './deals.css';
import { BlankOrStoredScreen, useRecordForm, type Mode } from '../../../kit/record.tsx';
import { onlyTypeFields, toDealForm, typeOf, withLead } from '../deal-form.ts';
import { useDealActions } from '../components/deal-actions.tsx';
import { DealGroupCard, DealParties, type DealFormParts } from '../components/deal-sections.tsx';
import { DealInvoices } from '../components/deal-invoices.tsx';
import { DealSigning } from '../components/deal-signing.tsx';

/** Activities link to a deal with link kind 5. */
const ENTITY_DEAL = 5;

/** /Deals/Add and /Deads/Add (create; ?objectId= or ?demandId= starts from an object or a lead), /Deals/{id} (view), /Deals/Edit/{id} (edit). */
export const DealPage = keyedByAddress(DealPageScreen);

function DealPageScreen() {
  return (
    <BlankOrStoredScreen
      editPrefix="/deals/edit"
      blank={(search) => blankDealQuery({ objectId: Number(search.get('objectId')) || null, demandId: Number(search.get('demandId')) || null })}
      stored={dealQuery}
      recent={['deal', (d, id) => [`#${id}`, d.objectReferenceNumber ? `#${d.objectReferenceNumber}` : '', d.objectTitle ?? ''].filter(Boolean).join(' · ')]}
      testId="deal"
    >
      {(data, mode) => <DealForm deal={data} mode={mode} />}
    </BlankOrStoredScreen>
  );
}

function DealForm({ deal, mode }: { deal: TDealAnswer; mode: Mode }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const client = useQueryClient();
  const rf = useRecordForm({ record: deal, mode, carryKey: `deal-${deal.id}`, toForm: toDealForm });
  const { form, setForm, set, busy, errors, error, readOnly } = rf;
  const dealType = typeOf(form.values);
  // The deposit is a sale's earnest money and a rental's security deposit: its field, its date and
  // the stage it is paid in are named by the type chosen.
  const lists: Record<string, TSelectOption[]> = {
    dealTypeOptions: deal.dealTypeOptions,
    dealStageOptions: deal.dealStageOptions.map((o) => ({ ...o, text: t(dealTextKey(`deals.stage.${o.value}`, dealType), { defaultValue: o.text }) })),
  };
  const setValue = (name: string, v: Draft) =>
    setForm((f) => {
      const values = { ...f.values, [name]: v };
      // Another type: its own fields only.
      return { ...f, values: name === 'dealType' ? onlyTypeFields(values) : values };
    });
  /** A lead picked: what the deal takes from it (deal-form.ts, withLead), once the server has made a deal of it. */
  const pickLead = async (v: Picked) => {
    set({ demand: v });
    if (!v) return;
    let from: TDealAnswer;
    try {
      from = await client.fetchQuery(blankDealQuery({ objectId: null, demandId: v.id }));
    } catch {
      return; // The lead stays picked; the parties can be added by hand.
    }
    setForm((f) => withLead(f, v.id, from));
  };
  const parts: DealFormParts = { deal, form, set, setValue, pickLead: (v) => void pickLead(v), errors, readOnly, lists, fieldLabel: (name) => t(dealTextKey(`fields.deal.${name}`, dealType)) };
  const { save, remove } = useDealActions(rf, parts, mode);

  return (
    <Stack gap="sm" data-testid="deal-page" data-mode={mode}>
      <RecordToolbar
        title={mode === 'create' ? t('deals.ui.new') : t('deals.ui.title', { id: deal.id })}
        mode={mode}
        backText={t('deals.ui.back')}
        onBack={goBack}
        route="/Deals"
        id={deal.id}
        onDelete={() => void remove()}
        onSave={() => void save()}
        busy={busy}
        error={error}
        testId="deal"
      />
      {mode === 'view' && deal.id != null && (
        <Group gap="xs">
          <DocumentButton source="offer" id={deal.id} label={t('doctemplates.ui.offerButton')} title={t('doctemplates.ui.kind.offer')} testId="deal-document" />
        </Group>
      )}
      {DEAL_GROUPS.map((g) => (
        <Fragment key={g}>
          <DealGroupCard p={parts} g={g} />
          {g === 'main' && <DealParties p={parts} />}
        </Fragment>
      ))}
      {mode !== 'create' && deal.id != null && (
        <RecordStamps createdOn={deal.createdOn} createdBy={deal.createdBy} modifiedOn={deal.modifiedOn} modifiedBy={deal.modifiedBy} testId="deal-stamps" />
      )}
      {mode === 'view' && deal.id != null && <DealSigning dealId={deal.id} objectId={deal.objectId} />}
      {mode === 'view' && deal.id != null && <DealInvoices dealId={deal.id} dealStage={deal.dealStage as number | null} />}
      {mode === 'view' && deal.id != null && <ActivityList entityType={ENTITY_DEAL} id={deal.id} editable mail={{ dealId: deal.id }} />}
    </Stack>
  );
}
