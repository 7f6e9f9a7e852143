import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { RecordPage } from '../../../kit/record-page.tsx';
import { VIEWING } from '@crm/contract/resources';
import { ActivityList } from '../../../components/activity-list-lazy.tsx';
import { Assignments } from '../../../components/assignments.tsx';
import type { Picked } from '../../../components/search-picker.tsx';
import { blankViewingQuery, viewingQuery, type TViewingAnswer } from '../api/viewings.ts';
import { recordScreen, useRecordForm, type RecordFormProps } from '../../../kit/record.tsx';
import { PrintSheetLink } from '../components/viewing-on-site.tsx';
import { ENTITY_VIEWING, toForm, type Row } from '../components/viewing-form-model.ts';
import { useViewingActions } from '../components/viewing-actions.ts';
import { ViewingObjectsCard, ViewingWhenCard } from '../components/viewing-sections.tsx';
import './viewings.css';

/** /Viewing/Add (create; ?demandId= starts from a lead), /Viewing/{id} (view), /Viewing/Edit/{id} (edit). */
export const ViewingPage = recordScreen(
  { testId: 'viewing', route: VIEWING.screens.list, texts: 'viewings.ui' },
  {
    blank: (search) => blankViewingQuery(Number(search.get('demandId')) || null),
    stored: viewingQuery,
    recent: ['viewing', (v, id) => [`#${v.viewingNumber || id}`, v.demand ?? ''].filter(Boolean).join(' · ')],
  },
  ViewingForm,
);

function ViewingForm(props: RecordFormProps<TViewingAnswer>) {
  const { record: viewing, mode } = props;
  const { t } = useTranslation();
  const client = useQueryClient();
  const rf = useRecordForm({ record: viewing, mode, carryKey: `viewing-${viewing.id}`, toForm });
  const { form, setForm, set, errors, setError, readOnly } = rf;
  // The properties that came with the lead (its offered ones), not yet given a result: a different
  // lead picked takes them away again, while properties added by hand, or already given a result,
  // stay. A new viewing started from a lead (?demandId=) begins with that lead's.
  const fromLead = useRef<Set<number>>(new Set(mode === 'create' && viewing.demandId != null ? viewing.results.map((r) => r.objectId) : []));

  /** The lead picked or changed: its offered properties join the list, as when started from the lead. */
  const pickLead = async (v: Picked) => {
    const previous = fromLead.current;
    fromLead.current = new Set();
    // One with a comment typed stays too: what the client said is not dropped with the lead.
    setForm((f) => ({ ...f, demand: v, results: f.results.filter((r) => !(previous.has(r.objectId) && r.result === 1 && !r.comment.trim())) }));
    if (!v) return;
    let offered: Row[];
    try {
      offered = toForm(await client.fetchQuery(blankViewingQuery(v.id))).results;
    } catch {
      return; // The lead stays picked; its properties can be added by hand.
    }
    setForm((f) => {
      if (f.demand?.id !== v.id) return f; // another lead was picked meanwhile
      const added = offered.filter((o) => !f.results.some((r) => r.objectId === o.objectId));
      fromLead.current = new Set(added.map((o) => o.objectId));
      return { ...f, results: [...f.results, ...added] };
    });
  };

  const addObject = (p: Picked) => {
    if (!p) return;
    if (form.results.some((r) => r.objectId === p.id)) {
      setError(t('leads.objectAlreadyInList'));
      return;
    }
    fromLead.current.delete(p.id); // added by hand: it stays whichever lead is picked
    const ref = /^#(\S+)/.exec(p.text)?.[1] ?? '';
    set({ results: [...form.results, { objectId: p.id, objectReferenceNumber: ref, title: p.text.replace(/^#\S+\s*(·\s*)?/, ''), result: 1, comment: '' }] });
    setError(null);
  };

  const actions = useViewingActions(rf, viewing, mode);
  const parts = { viewing, mode, form, set, setForm, errors, readOnly, pickLead: (v: Picked) => void pickLead(v), addObject };

  return (
    <RecordPage of={props} title={t('viewings.ui.title', { id: viewing.id })} form={rf} actions={actions} viewActions={viewing.id != null && <PrintSheetLink id={viewing.id} />}>
      <ViewingWhenCard p={parts} />
      <ViewingObjectsCard p={parts} />
      {mode !== 'create' && viewing.id != null && (
        <>
          <Assignments parent="viewing" parentId={viewing.id} editable />
          <RecordStamps createdOn={viewing.createdOn} createdBy={viewing.createdByAccountDisplayName} modifiedOn={viewing.modifiedOn} modifiedBy={viewing.modifiedByAccountDisplayName} testId="viewing-stamps" />
        </>
      )}
      {mode === 'view' && viewing.id != null && <ActivityList entityType={ENTITY_VIEWING} id={viewing.id} editable />}
    </RecordPage>
  );
}
