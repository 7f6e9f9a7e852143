import { Alert, Button, Center, Group, Loader, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ActivityList } from '../../../components/activity-list-lazy.tsx';
import { Assignments } from '../../../components/assignments.tsx';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { forgetOpened, useRecordOpened } from '../../../lib/recent.ts';
import { IconArrowsMaximize, IconArrowsMinimize, IconDots, IconEye, IconPencil } from '../../../components/icons.ts';
import { ApiError } from '../../../lib/api.ts';
import { uploadsInFlight } from '../../../lib/upload.ts';
import { showBannerAfterNavigation } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import type { AutosaveStatus } from '../../../lib/use-autosave.ts';
import { useGoBack } from '../../../components/go-back.ts';
import { deleteObject, discardObject, justAddedObjects, objectEditQuery, objectKeys, objectViewQuery, validIdOrRef, type TObjectView } from '../api/objects.ts';
import { ObjectEditor } from '../components/object-editor.tsx';
import { ObjectView } from '../components/object-view.tsx';
import { IconFileDescription } from '../icons.ts';
import { headingTitleField } from '../object-title.ts';
import { SaveStatus } from '../../../components/save-status.tsx';
import { focusMenuButtonAfterDialog } from '../../../lib/menu-confirm.ts';
import { DeleteMenuItem } from '../../../components/delete-menu-item.tsx';

type ViewMode = 0 | 1 | 2;
const LINK_OBJECT = 1;

/** A numeric id, or `ref` followed by the reference number. */

/** /Objects/View/{id}[/{viewMode}]: id is the numeric id or `ref` + the reference number; 0 view, 1 edit, 2 expanded edit. */
/** How the recently opened list and the tab name a property: its reference and its title in the reader's language, else the other one (the page heading's rule). */
function recentLabel(data: { referenceNumber?: string | null; title?: unknown; titleRu?: unknown } | undefined, language: string): string | null {
  if (!data) return null;
  const shown = data[headingTitleField(data, language)];
  const title = typeof shown === 'string' ? shown.trim() : '';
  return [`#${data.referenceNumber ?? ''}`, title].filter((x) => x && x !== '#').join(' · ');
}

export function ObjectViewPage() {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const navigate = useNavigate();
  const idOrRef = params.id;
  const raw = Number(params.viewMode ?? 0);
  const mode: ViewMode = raw === 1 || raw === 2 ? raw : 0;
  const [status, setStatus] = useState<AutosaveStatus>('idle');
  const valid = !!idOrRef && validIdOrRef(idOrRef);
  const view = useQuery({ ...objectViewQuery(idOrRef ?? ''), enabled: valid });
  const setMode = (m: ViewMode) => navigate(`/Objects/View/${idOrRef}/${m}`, { replace: true });
  const gone = view.error instanceof ApiError && view.error.status === 404;
  useDiscardIfLeftEmpty(idOrRef, status);
  useRecordOpened('object', view.data?.id ?? (/^\d+$/.test(idOrRef ?? '') ? Number(idOrRef) : 0), recentLabel(view.data, i18n.language), gone);

  if (!idOrRef)
    return (
      <Alert color="red" data-testid="object-no-id" maw={640} mx="auto" mt="lg">
        {t('objects.view.noId')}
      </Alert>
    );
  if (!valid || gone) return <RecordNotFound testId="object-not-found" />;

  const numericId = /^\d+$/.test(idOrRef) ? Number(idOrRef) : view.data?.id;
  return (
    <Stack gap="sm" data-testid="object-page" data-mode={mode}>
      <ObjectToolbar data={view.data} mode={mode} setMode={setMode} status={mode === 0 ? 'idle' : status} />
      {view.isError && !view.data ? (
        <LoadError error={view.error} />
      ) : numericId == null ? (
        <Loading />
      ) : mode === 0 ? (
        <ViewBody data={view.data} idOrRef={idOrRef} />
      ) : (
        <EditBody key={numericId} id={numericId} expanded={mode === 2} onStatus={setStatus} />
      )}
      {numericId != null && (
        <>
          <Assignments parent="object" parentId={numericId} editable />
          {/* Below the whole property: drawn when scrolled near, once the view above is in place. */}
          <ActivityList entityType={LINK_OBJECT} id={numericId} editable armed={mode !== 0 || !!view.data} />
        </>
      )}
    </Stack>
  );
}

/**
 * A property opened with Add ("New property") in this tab and left for another screen (a menu
 * link, Back) before anything was entered or saved is discarded, so that blank properties do not
 * pile up in the list. The server removes it only if nothing at all was done with it (no save, no
 * contacts, photos, keys, activities, assignments...); switching between view and edit is not
 * leaving, nor is opening a form for this property (Add key), nor a reload (the job objects.pruneEmpty removes those after a day).
 */
function useDiscardIfLeftEmpty(idOrRef: string | undefined, status: AutosaveStatus) {
  const client = useQueryClient();
  const statusNow = useRef(status);
  statusNow.current = status;
  const id = /^\d+$/.test(idOrRef ?? '') ? Number(idOrRef) : 0;
  useEffect(
    () => () => {
      if (!justAddedObjects.has(id)) return;
      if (new RegExp(`^/objects/view/${id}(/|$)`).test(window.location.pathname.toLowerCase())) return;
      // Left for a form about this property (Add key, New reservation: `?objectId=N`), which comes
      // back to it: the property is being worked on, not abandoned.
      if (new URLSearchParams(window.location.search).get('objectId') === String(id)) return;
      justAddedObjects.delete(id);
      // Something typed and on its way (or saved), or a photo still uploading: the property is not empty.
      if (statusNow.current !== 'idle' || uploadsInFlight() > 0) return;
      void discardObject(id)
        .then(({ discarded }) => {
          if (!discarded) return;
          forgetOpened('object', id);
          client.removeQueries({ queryKey: objectKeys.view(id) });
          client.removeQueries({ queryKey: objectKeys.edit(id) });
          void client.invalidateQueries({ queryKey: objectKeys.lists });
        })
        .catch(() => undefined);
    },
    [id, client],
  );
}

function ViewBody({ data, idOrRef }: { data: TObjectView | undefined; idOrRef: string }) {
  const client = useQueryClient();
  // A field saved on the view: merge the answer into the view (by id and by ref).
  const onSaved = useCallback(
    (dto: Record<string, unknown>) => {
      client.setQueryData<TObjectView>(objectKeys.view(idOrRef), (old) => (old ? ({ ...old, ...dto } as TObjectView) : old));
      void client.invalidateQueries({ queryKey: ['object', 'view'] });
      void client.invalidateQueries({ queryKey: objectKeys.lists });
    },
    [client, idOrRef],
  );
  if (!data) return <Loading />;
  return <ObjectView data={data} onSaved={onSaved} />;
}

function EditBody({ id, expanded, onStatus }: { id: number; expanded: boolean; onStatus: (s: AutosaveStatus) => void }) {
  const q = useQuery(objectEditQuery(id));
  if (q.isError && !q.data) return <LoadError error={q.error} />;
  // Start from the record as it is now (not a cached copy), so the form's version is current.
  if (!q.data || !q.isFetchedAfterMount) return <Loading />;
  return <ObjectEditor initial={q.data} expanded={expanded} onStatus={onStatus} />;
}

function Loading() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

function LoadError({ error }: { error: unknown }) {
  return (
    <Alert color="red" data-testid="object-error">
      {describeError(error).message}
    </Alert>
  );
}

function ObjectToolbar({ data, mode, setMode, status }: { data: TObjectView | undefined; mode: ViewMode; setMode: (m: ViewMode) => void; status: AutosaveStatus }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const client = useQueryClient();
  const ref = data?.referenceNumber ?? '';
  const remove = useMutation({
    mutationFn: () => deleteObject(data!.id),
    onSuccess: () => {
      client.removeQueries({ queryKey: objectKeys.all });
      void client.invalidateQueries({ queryKey: objectKeys.lists });
      showBannerAfterNavigation('success', t('objects.delete.done', { ref }));
      goBack();
    },
  });
  const menuButton = useRef<HTMLButtonElement>(null);
  const confirmDelete = () =>
    modals.openConfirmModal({
      onClose: () => focusMenuButtonAfterDialog(menuButton),
      title: t('objects.delete.title'),
      children: <Text size="sm">{t('objects.delete.confirm', { ref })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      onConfirm: () => remove.mutate(),
    });

  return (
    <Paper withBorder p="xs" className="no-print">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={2} size="h3" data-testid="object-header">
          {data ? t('objects.view.header', { ref }) : t('title.object')}
        </Title>
        <Group gap="xs" wrap="wrap">
          <SaveStatus status={status} />
          <Button
            variant={mode === 0 ? 'filled' : 'light'}
            leftSection={mode === 0 ? <IconPencil size={16} /> : <IconEye size={16} />}
            onClick={() => setMode(mode === 0 ? 1 : 0)}
            data-testid="edit-toggle"
            aria-pressed={mode !== 0}
            disabled={!data}
          >
            {mode === 0 ? t('common.edit') : t('objects.view.done')}
          </Button>
          {mode !== 0 && (
            <Button
              variant="default"
              leftSection={mode === 2 ? <IconArrowsMinimize size={16} /> : <IconArrowsMaximize size={16} />}
              onClick={() => setMode(mode === 2 ? 1 : 2)}
              data-testid="more-toggle"
            >
              {mode === 2 ? t('common.collapse') : t('common.more')}
            </Button>
          )}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" px="xs" aria-label={t('objects.view.actions')} data-testid="object-menu" ref={menuButton} disabled={!data}>
                <IconDots size={18} />
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {data && (
                <Menu.Item component={Link} to={`/Objects/Sheet/${data.id}`} leftSection={<IconFileDescription size={16} />} data-testid="object-sheet">
                  {t('objects.sheet.menu')}
                </Menu.Item>
              )}
              <DeleteMenuItem onClick={confirmDelete} testId="delete-object">
                {t('objects.delete.menu')}
              </DeleteMenuItem>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
    </Paper>
  );
}
