import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useNavigate } from 'react-router';
import { VIEWING, href } from '@crm/contract/resources';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { saveRecord, useDeleteRecord, type Mode, type RecordForm } from '../../../kit/record.tsx';
import { deleteViewing, saveViewing, viewingKeys, type TViewingAnswer } from '../api/viewings.ts';
import { mergeViewingForms, toForm, viewingBody, type Form } from './viewing-form-model.ts';

/** The viewing's Save and Delete: what each says and where each goes on. */
export function useViewingActions(rf: RecordForm<Form>, viewing: TViewingAnswer, mode: Mode) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const confirmDelete = useDeleteRecord();
  const { form, loaded } = rf;

  const save = async () => {
    // A day without a time would be saved as midnight: ask for the time instead.
    if (form.viewingDate && !form.viewingTime && !focusInvalidEntry()) {
      rf.setErrors({ dateOfViewing: t('viewings.ui.timeRequired') });
      return;
    }
    let lostRows: string[] = [];
    await saveRecord(
      rf,
      {
        body: () => viewingBody(form, viewing, mode === 'create'),
        // Saved again after a lost answer, the same content is the same change: no second viewing.
        send: saveViewing,
        saved: (saved) => {
          client.setQueryData(viewingKeys.one(saved.id!), saved);
          void client.invalidateQueries({ queryKey: viewingKeys.lists });
          void client.invalidateQueries({ queryKey: viewingKeys.calendar });
          // The comments and results show on the properties' pages and on the lead's.
          void client.invalidateQueries({ queryKey: viewingKeys.ofLead });
          void client.invalidateQueries({ queryKey: ['object'] });
          // A viewing arranged for a new lead moves it to Viewings: its page and the lists say so.
          if (form.demand != null) void client.invalidateQueries({ queryKey: ['lead'] });
          return { to: href(VIEWING.screens.view, { id: saved.id! }), replace: mode === 'create', banner: ['success', t('viewings.ui.saved')] };
        },
        conflict: {
          current: (c) => c as TViewingAnswer,
          store: (current) => client.setQueryData(viewingKeys.one(current.id!), { ...current, resultOptions: viewing.resultOptions }),
          merge: (current) => {
            const m = mergeViewingForms(loaded, form, toForm(current));
            lostRows = m.lostRows;
            return m;
          },
          label: (k) =>
            k === 'demand'
              ? t('viewings.ui.lead')
              : k === 'results'
                ? `${t('viewings.ui.objects')}${lostRows.length ? ` (${lostRows.join(', ')})` : ''}`
                : k.startsWith('created')
                  ? t('viewings.ui.appointmentCreated')
                  : t('viewings.ui.dateOfViewing'),
        },
      },
      t,
      navigate,
    );
  };

  const remove = () =>
    confirmDelete({
      title: t('viewings.ui.deleteTitle'),
      text: t('viewings.ui.deleteConfirm'),
      run: async () => {
        await deleteViewing(viewing.id!);
        void client.invalidateQueries({ queryKey: viewingKeys.all });
      },
      done: { banner: ['success', t('viewings.ui.deleted')], to: '/Viewing' },
      onError: rf.setError,
      release: rf.leaveGuard.release,
    });
  return { save, remove };
}
