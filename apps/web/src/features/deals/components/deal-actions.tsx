import { Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useNavigate } from 'react-router';
import { DEAL } from '@crm/contract/resources';
import { href } from '@crm/contract/resources';
import { objectKeys } from '../../../lib/query-keys.ts';
import { saveRecord, useDeleteRecord, type Mode, type RecordForm } from '../../../kit/record.tsx';
import { dealKeys, dealOnDelete, deleteDeal, saveDeal, savedBanner, type TDealAnswer } from '../api/deals.ts';
import { dealBody, mergeDealForms, toDealForm, type DealFormValues } from '../deal-form.ts';
import type { DealFormParts } from './deal-sections.tsx';

/** The deal's Save and Delete: what each says and where each goes on. */
export function useDealActions(rf: RecordForm<DealFormValues>, p: DealFormParts, mode: Mode) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const confirmDelete = useDeleteRecord();
  const { deal } = p;
  const { form, loaded } = rf;

  const save = () =>
    saveRecord(
      rf,
      {
        body: () => dealBody(form, deal, p.lists),
        // Saved again after a lost answer, the same content is the same change: no second deal.
        send: saveDeal,
        saved: ({ notices, ...saved }) => {
          client.setQueryData(dealKeys.one(saved.id!), saved);
          void client.invalidateQueries({ queryKey: dealKeys.lists });
          void client.invalidateQueries({ queryKey: dealKeys.board });
          // A closed rental's tenant put on the property changes its contacts.
          if (notices.length) void client.invalidateQueries({ queryKey: objectKeys.all });
          // A deal made from a lead moves it on (Negotiating, or Won when closed): its page and the lists say so.
          if (form.demand != null) void client.invalidateQueries({ queryKey: ['lead'] });
          return { to: href(DEAL.screens.view, { id: saved.id! }), replace: mode === 'create', banner: savedBanner(t('deals.ui.saved'), notices) };
        },
        conflict: {
          current: (c) => c as TDealAnswer,
          store: (current) => client.setQueryData(dealKeys.one(current.id!), current),
          merge: (current) => mergeDealForms(loaded, form, toDealForm(current)),
          label: (k) => (k === 'object' ? t('deals.ui.object') : k === 'demand' ? t('deals.ui.lead') : k === 'parties' ? t('deals.ui.parties') : p.fieldLabel(k)),
        },
      },
      t,
      navigate,
    );

  const remove = async () => {
    if (rf.busy) return;
    // A tenant the deal put on a property goes with it, or stays (changed since, or not the deal's):
    // said before, as it stands when asked. The page may have been open while the tenancy was changed
    // in the property's Contacts (or by another deal); the delete goes by the stored one.
    rf.setBusy(true);
    let onDelete = deal.onDelete;
    try {
      onDelete = await dealOnDelete(deal.id!);
    } catch {
      // Not read (offline, the deal gone): the page's reading; the delete itself says what it did.
    } finally {
      rf.setBusy(false);
    }
    let notices: { kind: 'info' | 'warning'; text: string }[] = [];
    confirmDelete({
      title: t('deals.ui.deleteTitle'),
      text: t('deals.ui.deleteConfirm'),
      extra: (
        <Stack gap="xs" data-testid="deal-delete-confirm">
          <Text size="sm">{t('deals.ui.deleteConfirm')}</Text>
          {onDelete.map((n) => (
            <Text key={n.text} size="sm" c={n.kind === 'warning' ? 'orange.9' : undefined} data-testid="deal-delete-tenancy">
              {n.text}
            </Text>
          ))}
        </Stack>
      ),
      run: async () => {
        notices = (await deleteDeal(deal.id!)).notices;
        // A rental's tenant taken off its property changes the property's contacts.
        if (notices.length) void client.invalidateQueries({ queryKey: objectKeys.all });
      },
      drop: [dealKeys.one(deal.id!)],
      refresh: [dealKeys.all],
      done: {
        get banner() {
          return savedBanner(t('deals.ui.deleted'), notices);
        },
        to: '/Deals',
      },
      onError: rf.setError,
      release: rf.leaveGuard.release,
    });
  };
  return { save, remove };
}
