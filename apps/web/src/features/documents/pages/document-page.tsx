import { Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useLocation, useNavigate } from 'react-router';
import { DOCUMENT, href } from '@crm/contract/resources';
import { RecordToolbar } from '../../../components/record-toolbar.tsx';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { JUST_READ_MS } from '../../../lib/freshness.ts';
import { mergeOnConflict } from '../../../lib/conflict-merge.ts';
import { RecordLoad, saveRecord, useDeleteRecord, useRecordAddress, useRecordForm, type Mode } from '../../../kit/record.tsx';
import { deleteDocument, documentForm, documentKeys, documentQuery, saveDocument, type TDocument } from '../api/documents.ts';
import { DocumentDetails } from '../components/document-details.tsx';
import { DocumentFiles, type TDocumentFiles } from '../components/document-files.tsx';

const BLANK: TDocument = { id: 0, name: '', description: null, link: null, file: null, files: [], createdOn: '', createdBy: null, modifiedOn: '', modifiedBy: null, version: 0 };

type Form = { name: string; description: string } & TDocumentFiles;
const toForm = (d: TDocument): Form => ({ name: d.name, description: d.description ?? '', removed: [], added: [] });

/**
 * /Document/Add (create), /Document/{id} (view; Edit switches to edit, at ?edit=1 as the list's
 * pencil opens it). Each address mounts afresh: an edit reads the document again, a save goes back
 * to reading it.
 */
export function DocumentPage() {
  const { pathname, search } = useLocation();
  return <DocumentScreen key={pathname + search} />;
}

function DocumentScreen() {
  const { id, mode: opened, valid, search } = useRecordAddress();
  const mode: Mode = opened === 'view' && search.get('edit') === '1' ? 'edit' : opened;
  // Opened to be read, it takes its route's read of this opening (app/router.tsx); to edit, it reads afresh.
  const q = useQuery({ ...documentQuery(id ?? 0), enabled: id != null && valid, staleTime: mode === 'edit' ? 0 : JUST_READ_MS });
  if (id == null) return <DocumentForm doc={BLANK} mode="create" />;
  return (
    <RecordLoad q={q} valid={valid} mode={mode} testId="document">
      {(doc) => <DocumentForm key={`${doc.id}-${doc.version}`} doc={doc} mode={mode} />}
    </RecordLoad>
  );
}

function DocumentForm({ doc, mode }: { doc: TDocument; mode: Mode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const rf = useRecordForm({ record: doc, mode, carryKey: `document-${doc.id}`, toForm });
  const { form, set, errors, readOnly } = rf;
  const [progress, setProgress] = useState(0);
  const view = href(DOCUMENT.screens.view, { id: doc.id });
  // Typed on: what was said of the field goes.
  const type = (name: 'name' | 'description', value: string) => {
    set({ [name]: value });
    if (errors[name]) rf.setErrors(({ [name]: _gone, ...rest }) => rest);
  };

  const save = () => {
    if (rf.busy) return;
    if (!form.name.trim()) return rf.setErrors({ name: t('documents.ui.nameRequired') });
    rf.setError(null);
    void saveRecord(
      rf,
      {
        body: () =>
          documentForm({
            ...(mode === 'edit' ? { id: doc.id, version: doc.version } : {}),
            name: form.name.trim(),
            description: form.description,
            filesRemoved: form.removed.filter((id) => doc.files.some((f) => f.id === id)),
            files: form.added,
          }),
        send: (body: FormData, changeKey: string) => {
          setProgress(0);
          return saveDocument(body, setProgress, changeKey);
        },
        saved: (saved) => {
          client.setQueryData(documentKeys.one(saved.id), saved);
          void client.invalidateQueries({ queryKey: documentKeys.lists });
          return { to: href(DOCUMENT.screens.view, { id: saved.id }), replace: true, banner: ['success', t('documents.ui.saved')] };
        },
        // The form opens again on their version, in edit, with what only this user changed (files too).
        conflict: {
          current: (c) => c as TDocument,
          store: (current) => client.setQueryData(documentKeys.one(current.id), current),
          merge: (current) => {
            const m = mergeOnConflict({ name: rf.loaded.name, description: rf.loaded.description }, { name: form.name, description: form.description }, { name: current.name, description: current.description ?? '' });
            const files = form.removed.length > 0 || form.added.length > 0;
            return { next: { ...m.next, removed: form.removed, added: form.added }, changed: files ? [...m.changed, 'files'] : m.changed, lost: m.lost, kept: true };
          },
          label: (k) => t(`documents.ui.${k}`),
        },
      },
      t,
      navigate,
    );
  };

  const confirmDelete = useDeleteRecord();
  const remove = () =>
    confirmDelete({
      title: t('documents.ui.deleteTitle'),
      text: t('documents.ui.deleteConfirm'),
      run: () => deleteDocument(doc.id),
      drop: [documentKeys.one(doc.id)],
      refresh: [documentKeys.lists],
      done: { banner: ['success', t('documents.ui.deleted')], to: href(DOCUMENT.screens.list) },
      onError: rf.setError,
      release: rf.leaveGuard.release,
    });

  // A refusal of the files (not of the name or the description, said under them) is said over the form.
  const otherErrors = Object.entries(errors).filter(([k]) => k !== 'name' && k !== 'description');
  return (
    <Stack gap="sm" maw={900} data-testid="document-page" data-mode={mode}>
      <RecordToolbar
        title={mode === 'create' ? t('documents.ui.new') : doc.name}
        mode={mode}
        backText={t('documents.ui.back')}
        route={href(DOCUMENT.screens.list)}
        id={doc.id}
        onEdit={() => navigate(href(DOCUMENT.screens.view, { id: doc.id }, { edit: 1 }), { replace: true })}
        // Cancel drops what was typed, unasked, and goes back to reading the document.
        onCancel={() => {
          rf.leaveGuard.release();
          navigate(view, { replace: true });
        }}
        onDelete={remove}
        onSave={save}
        state={{ busy: rf.busy, error: rf.error ?? (otherErrors.map(([, v]) => v).join(' ') || null) }}
        testId="document"
      />
      <DocumentDetails doc={doc} name={form.name} description={form.description} readOnly={readOnly} errors={errors} onType={type} />
      <DocumentFiles doc={doc} files={form} set={set} readOnly={readOnly} progress={rf.busy ? progress : null} onError={rf.setError} />
      {mode !== 'create' && <RecordStamps createdOn={doc.createdOn} createdBy={doc.createdBy} modifiedOn={doc.modifiedOn} modifiedBy={doc.modifiedBy} testId="document-stamps" />}
    </Stack>
  );
}
