import { Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TSelectOption } from '@crm/contract';
import { DEAL_GROUPS, dealTextKey } from '@crm/contract/deal-fields';
import { RecordPage } from '../../../kit/record-page.tsx';
import { DEAL } from '@crm/contract/resources';
import { ActivityList } from '../../../components/activity-list-lazy.tsx';
import type { Draft } from '../../../components/fields/field-values.ts';
import type { Picked } from '../../../components/search-picker.tsx';
import { blankDealQuery, dealQuery, type TDealAnswer } from '../api/deals.ts';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { DocumentButton } from '../../../components/document-button.tsx';
import './deals.css';
import { recordScreen, useRecordForm, type RecordFormProps } from '../../../kit/record.tsx';
import { onlyTypeFields, toDealForm, typeOf, withLead } from '../deal-form.ts';
import { useDealActions } from '../components/deal-actions.tsx';
import { DealGroupCard, DealParties, type DealFormParts } from '../components/deal-sections.tsx';
import { DealInvoices } from '../components/deal-invoices.tsx';
import { DealSigning } from '../components/deal-signing.tsx';

/** Activities link to a deal with link kind 5. */
const ENTITY_DEAL = 5;

/** /Deals/Add and /Deads/Add (create; ?objectId= or ?demandId= starts from an object or a lead), /Deals/{id} (view), /Deals/Edit/{id} (edit). */
export const DealPage = recordScreen(
  { testId: 'deal', route: DEAL.screens.list, texts: 'deals.ui' },
  {
    blank: (search) => blankDealQuery({ objectId: Number(search.get('objectId')) || null, demandId: Number(search.get('demandId')) || null }),
    stored: dealQuery,
    recent: ['deal', (d, id) => [`#${id}`, d.objectReferenceNumber ? `#${d.objectReferenceNumber}` : '', d.objectTitle ?? ''].filter(Boolean).join(' · ')],
  },
  DealForm,
);

function DealForm(props: RecordFormProps<TDealAnswer>) {
  const { record: deal, mode } = props;
  const { t } = useTranslation();
  const client = useQueryClient();
  const rf = useRecordForm({ record: deal, mode, carryKey: `deal-${deal.id}`, toForm: toDealForm });
  const { form, setForm, set, errors, readOnly } = rf;
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
  const actions = useDealActions(rf, parts, mode);

  return (
    <RecordPage of={props} title={t('deals.ui.title', { id: deal.id })} form={rf} actions={actions}>
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
    </RecordPage>
  );
}
