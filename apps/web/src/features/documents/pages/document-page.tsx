import { ActionIcon, Alert, Button, Card, Group, Progress, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { TDocument } from '@crm/contract';
import { DOCUMENT_DESCRIPTION_MAX, DOCUMENT_FILES_MAX, DOCUMENT_NAME_MAX } from '@crm/contract/office-constants';
import { UPLOAD_ACCEPT } from '../../../components/file-drop.tsx';
import { FileLinks, formatFileSize } from '../../../components/file-links.tsx';
import { IconCloudUpload, IconTrash, IconX } from '../../../components/icons.ts';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { ApiError } from '../../../lib/api.ts';
import { showBanner, showBannerAfterNavigation } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { JUST_READ_MS } from '../../../lib/freshness.ts';
import { useUploadLimits } from '../../../lib/use-upload-limits.ts';
import { useGoBack } from '../../../components/go-back.ts';
import { useChangeKeys } from '../../../lib/change-key.ts';
import { deleteDocument, documentKeys, documentQuery, saveDocument } from '../api/documents.ts';
import { DocumentLink } from './documents-page.tsx';
import { RecordStamps } from '../../../components/record-stamps.tsx';
import { carryForm, conflictMessage, mergeOnConflict, takeCarriedForm } from '../../../lib/conflict-merge.ts';
import { useFormLeaveGuard } from '../../../lib/unsaved-guard.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';

type Mode = 'create' | 'edit' | 'view';

const BLANK: TDocument = { id: 0, name: '', description: null, link: null, file: null, files: [], createdOn: '', createdBy: null, modifiedOn: '', modifiedBy: null, version: 0 };

/** /Document/Add (create), /Document/{id} (view; Edit switches to edit, as does ?edit=1 from the list). */
export function DocumentPage() {
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const valid = id == null || (Number.isInteger(id) && id > 0 && id < 2 ** 31);
  const [search] = useSearchParams();
  // Opened to be read, it takes its route's read of this opening (app/router.tsx); to edit, it reads afresh.
  const q = useQuery({ ...documentQuery(id ?? 0), enabled: id != null && valid, staleTime: search.get('edit') === '1' ? 0 : JUST_READ_MS });
  if (!valid || (q.error instanceof ApiError && q.error.status === 404)) return <RecordNotFound testId="document-not-found" />;
  if (id == null) return <DocumentForm doc={BLANK} initialMode="create" />;
  if (q.isError && !q.data)
    return (
      <Alert color="red" data-testid="document-error">
        {describeError(q.error).message}
      </Alert>
    );
  if (!q.data)
    return <PageLoading />;
  // Keyed by the address's ?edit too: saved from the list's pencil (?edit=1), the address drops it
  // and the form opens again to be read, as it does when Edit was pressed on the document.
  const editing = search.get('edit') === '1';
  return <DocumentForm key={`${q.data.id}-${q.data.version}-${editing ? 'edit' : 'view'}`} doc={q.data} initialMode={editing ? 'edit' : 'view'} />;
}

/** What is handed to the form that opens on the other version after a 409 (lib/conflict-merge.ts). */
type Carried = { name: string; description: string; removed: number[]; added: File[] };

function DocumentForm({ doc, initialMode }: { doc: TDocument; initialMode: Mode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const client = useQueryClient();
  const carryKey = `document-${doc.id}`;
  const [carried] = useState(() => takeCarriedForm<Carried>(carryKey));
  const [mode, setMode] = useState<Mode>(carried ? 'edit' : initialMode);
  const [name, setName] = useState(carried?.name ?? doc.name);
  const [description, setDescription] = useState(carried?.description ?? doc.description ?? '');
  const [removed, setRemoved] = useState<number[]>(() => (carried?.removed ?? []).filter((id) => doc.files.some((f) => f.id === id)));
  const [added, setAdded] = useState<File[]>(carried?.added ?? []);
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const limits = useUploadLimits();
  const changeKeys = useChangeKeys();
  const readOnly = mode === 'view';
  const busy = progress !== null;
  const kept = doc.files.filter((f) => !removed.includes(f.id));
  // Typed, picked or removed and not saved: leaving (a link, Back, a reload) asks first.
  const leaveGuard = useFormLeaveGuard(!readOnly && (name !== doc.name || description !== (doc.description ?? '') || removed.length > 0 || added.length > 0));

  const reset = (d: TDocument) => {
    setName(d.name);
    setDescription(d.description ?? '');
    setRemoved([]);
    setAdded([]);
    setErrors({});
  };

  const save = async () => {
    if (busy) return;
    if (!name.trim()) {
      setErrors({ name: t('documents.ui.nameRequired') });
      return;
    }
    setError(null);
    setErrors({});
    setProgress(0);
    try {
      const saved = await saveDocument(
        { ...(mode === 'edit' ? { id: doc.id, version: doc.version } : {}), name: name.trim(), description, filesRemoved: removed, files: added },
        setProgress,
        changeKeys,
      );
      changeKeys.renew();
      client.setQueryData(documentKeys.one(saved.id), saved);
      void client.invalidateQueries({ queryKey: documentKeys.lists });
      // Saved with nothing changed, the version stays and the form is not opened afresh: back to reading.
      if (mode === 'edit' && saved.version === doc.version) {
        reset(saved);
        setMode('view');
      } else leaveGuard.release();
      if (mode === 'create') {
        showBannerAfterNavigation('success', t('documents.ui.saved'));
        navigate(`/Document/${saved.id}`, { replace: true });
      } else {
        showBanner('success', t('documents.ui.saved'));
        navigate(`/Document/${saved.id}`, { replace: true });
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.problem.current) {
        const current = e.problem.current as TDocument;
        const texts = (d: TDocument) => ({ name: d.name, description: d.description ?? '' });
        const m = mergeOnConflict(texts(doc), { name, description }, texts(current));
        // The form opens again on their version, in edit, with what only this user changed (files too).
        carryForm<Carried>(carryKey, { ...m.next, removed, added });
        client.setQueryData(documentKeys.one(current.id), current);
        const changed = removed.length || added.length ? [...m.changed, 'files'] : m.changed;
        showBanner('warning', conflictMessage(t, e.problem.title, { changed, lost: m.lost }, (k) => t(`documents.ui.${k}`)));
      } else if (e instanceof ApiError && e.status === 400 && Object.keys(e.fieldErrors).length) {
        setErrors(e.fieldErrors);
        const other = Object.entries(e.fieldErrors).filter(([k]) => k !== 'name' && k !== 'description');
        setError(other.length ? other.map(([, v]) => v).join(' ') : null);
      } else setError(describeError(e).message);
    } finally {
      setProgress(null);
    }
  };

  const remove = () =>
    modals.openConfirmModal({
      title: t('documents.ui.deleteTitle'),
      children: <Text size="sm">{t('documents.ui.deleteConfirm')}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      onConfirm: async () => {
        try {
          await deleteDocument(doc.id);
          leaveGuard.release();
          client.removeQueries({ queryKey: documentKeys.one(doc.id) });
          void client.invalidateQueries({ queryKey: documentKeys.lists });
          showBannerAfterNavigation('success', t('documents.ui.deleted'));
          navigate('/DocumentList');
        } catch (e) {
          setError(describeError(e).message);
        }
      },
    });

  const pick = async (list: FileList | null) => {
    const files = list ? Array.from(list) : [];
    if (input.current) input.current.value = '';
    if (!files.length) return;
    if (kept.length + added.length + files.length > DOCUMENT_FILES_MAX) {
      setError(t('documents.ui.tooManyFiles', { max: DOCUMENT_FILES_MAX }));
      return;
    }
    // The new files are sent together on save: checked now against the server's limits, with those
    // added before, so a file that would be refused is never sent (and nothing typed is lost).
    const check = await limits.check(files, { already: added });
    setError(check.message('added'));
    setAdded((a) => [...a, ...check.accepted]);
  };

  return (
    <Stack gap="sm" maw={900} data-testid="document-page" data-mode={mode}>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {mode === 'create' ? t('documents.ui.new') : doc.name}
        </Title>
        <Group gap="xs">
          {readOnly ? (
            <>
              <Button variant="default" onClick={goBack} data-testid="document-back">
                {t('documents.ui.back')}
              </Button>
              <Button onClick={() => setMode('edit')} data-testid="document-edit">
                {t('common.edit')}
              </Button>
            </>
          ) : (
            <>
              {mode === 'edit' && (
                <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={remove} disabled={busy} data-testid="document-delete">
                  {t('common.delete')}
                </Button>
              )}
              <Button
                variant="default"
                disabled={busy}
                onClick={() => {
                  if (mode === 'create') goBack();
                  else {
                    reset(doc);
                    setMode('view');
                  }
                }}
                data-testid="document-cancel"
              >
                {t('common.cancel')}
              </Button>
              <Button onClick={() => void save()} loading={busy} data-testid="document-save">
                {t('common.save')}
              </Button>
            </>
          )}
        </Group>
      </Group>
      {error && (
        <Alert color="red" data-testid="document-form-error" className="pre-line">
          {error}
        </Alert>
      )}
      <Card withBorder padding="sm">
        {readOnly ? (
          <Stack gap="xs">
            <div>
              <Text size="xs" c="dimmed">
                {t('documents.ui.name')}
              </Text>
              <DocumentLink doc={doc} />
            </div>
            <div>
              <Text size="xs" c="dimmed">
                {t('documents.ui.description')}
              </Text>
              <Text size="sm" className="pre-line" data-testid="document-description">
                {doc.description || t('documents.ui.noDescription')}
              </Text>
            </div>
          </Stack>
        ) : (
          <Stack gap="xs">
            <TextInput
              label={t('documents.ui.name')}
              description={t('documents.ui.nameHint')}
              required
              maxLength={DOCUMENT_NAME_MAX}
              value={name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                // What was said of the name goes once the name is changed.
                if (errors.name) setErrors(({ name: _gone, ...rest }) => rest);
              }}
              error={errors.name}
              data-testid="document-name"
            />
            <Textarea
              label={t('documents.ui.description')}
              autosize
              minRows={3}
              maxRows={12}
              maxLength={DOCUMENT_DESCRIPTION_MAX}
              value={description}
              onChange={(e) => {
                setDescription(e.currentTarget.value);
                if (errors.description) setErrors(({ description: _gone, ...rest }) => rest);
              }}
              error={errors.description}
              data-testid="document-description-input"
            />
          </Stack>
        )}
      </Card>
      <Card withBorder padding="sm" data-testid="document-files">
        <Title order={3} size="h5" mb="xs">
          {t('documents.ui.files')}
        </Title>
        {kept.length === 0 && added.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('documents.ui.noFiles')}
          </Text>
        )}
        <FileLinks files={kept} onDelete={readOnly ? undefined : (f) => setRemoved((r) => [...r, f.id!])} />
        {!readOnly && added.length > 0 && (
          <Stack gap={4} mt="xs" data-testid="document-new-files">
            {added.map((f, i) => (
              <Group key={`${f.name}-${i}`} gap="xs" wrap="nowrap" data-testid="document-new-file">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {f.name}
                </Text>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatFileSize(f.size, t)} · {t('documents.ui.newFile')}
                </Text>
                <ActionIcon variant="subtle" color="red" size="sm" onClick={() => setAdded((a) => a.filter((_, j) => j !== i))} aria-label={t('documents.ui.dropNew', { name: f.name })}>
                  <IconX size={15} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
        {!readOnly && (
          <Stack gap="xs" mt="sm">
            <input ref={input} type="file" multiple hidden accept={UPLOAD_ACCEPT} data-testid="document-file-input" onChange={(e) => void pick(e.currentTarget.files)} />
            <Group>
              <Button variant="light" leftSection={<IconCloudUpload size={16} />} onClick={() => input.current?.click()} disabled={busy} data-testid="document-add-files">
                {t('documents.ui.addFiles')}
              </Button>
              <Text size="xs" c="dimmed">
                {t('documents.ui.filesHint', { max: DOCUMENT_FILES_MAX })}
              </Text>
            </Group>
            {progress !== null && <Progress value={progress} animated striped aria-label={t('files.uploading', { percent: progress })} data-testid="document-progress" />}
          </Stack>
        )}
      </Card>
      {mode !== 'create' && (
        <RecordStamps createdOn={doc.createdOn} createdBy={doc.createdBy} modifiedOn={doc.modifiedOn} modifiedBy={doc.modifiedBy} testId="document-stamps" />
      )}
    </Stack>
  );
}
