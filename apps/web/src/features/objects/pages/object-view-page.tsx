import { FailureAlert } from '../../../components/failure-alert.tsx';
import { Alert, Button, Center, Group, Loader, Menu, Paper, Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useNavigate, useParams } from 'react-router';
import { ActivityList } from '../../../components/activity-list-lazy.tsx';
import { Assignments } from '../../../components/assignments.tsx';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { forgetOpened, useRecordOpened } from '../../../lib/recent.ts';
import { IconDots } from '../../../components/icons.ts';
import { ApiError } from '../../../lib/api.ts';
import { uploadsInFlight } from '../../../lib/upload.ts';
import type { AutosaveStatus } from '../../../lib/use-autosave.ts';
import { deleteObject, discardObject, justAddedObjects, objectEditQuery, objectKeys, objectViewQuery, validIdOrRef, type TObjectView } from '../api/objects.ts';
import { ObjectEditor } from '../components/object-editor.tsx';
import { ObjectView } from '../components/object-view.tsx';
import { IconFileDescription } from '../icons.ts';
import { headingTitleField } from '../object-title.ts';
import { SaveStatus } from '../../../components/save-status.tsx';
import { ModeSwitches, useDiscardIfLeftEmpty, useMenuDelete } from '../../../kit/view-modes.tsx';
import { DeleteMenuItem } from '../../../components/delete-menu-item.tsx';
import { OBJECT, href } from '@crm/contract/resources';

type ViewMode = 0 | 1 | 2;
const LINK_OBJECT = 1;

/** A numeric id, or `ref` followed by the reference number. */

/** /Objects/View/{id}[/{viewMode}]: id is the numeric id or `ref` + the reference number; 0 view, 1 edit, 2 expanded edit. */
/** How the recently opened list and the tab name a property: its reference and its title in the reader's language, else the other one (the page heading's rule). */
function recentLabel(data: { referenceNumber?: string | null; title?: unknown; titleEn?: unknown; titleRu?: unknown } | undefined, language: string): string | null {
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
  const setMode = (m: ViewMode) => navigate(href(OBJECT.screens.view, { id: idOrRef!, viewMode: m }), { replace: true });
  const gone = view.error instanceof ApiError && view.error.status === 404;
  useDiscardObjectIfLeftEmpty(idOrRef, status);
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
        <FailureAlert failure={view.error} testId="object-error" />
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
          {/* Below the whole property: drawn when scrolled near, once the view above is in place. Its
              mail (and "New e-mail") is the view's, as the mail card was; editing, its activities. */}
          <ActivityList entityType={LINK_OBJECT} id={numericId} editable armed={mode !== 0 || !!view.data} mail={mode === 0 ? { objectId: numericId } : undefined} />
        </>
      )}
    </Stack>
  );
}

/**
 * A property opened with Add ("New property") and left before anything was entered is discarded
 * (kit/view-modes.tsx); opening a form for this property (Add key, New reservation: `?objectId=N`)
 * is not leaving it, and a photo still uploading makes it no blank one.
 */
function useDiscardObjectIfLeftEmpty(idOrRef: string | undefined, status: AutosaveStatus) {
  const statusNow = useRef(status);
  statusNow.current = status;
  const id = /^\d+$/.test(idOrRef ?? '') ? Number(idOrRef) : 0;
  useDiscardIfLeftEmpty({
    id,
    added: justAddedObjects,
    own: new RegExp(`^/objects/view/${id}(/|$)`),
    stays: () => new URLSearchParams(window.location.search).get('objectId') === String(id),
    busy: () => statusNow.current !== 'idle' || uploadsInFlight() > 0,
    discard: discardObject,
    gone: (client) => {
      forgetOpened('object', id);
      client.removeQueries({ queryKey: objectKeys.view(id) });
      client.removeQueries({ queryKey: objectKeys.edit(id) });
      void client.invalidateQueries({ queryKey: objectKeys.lists });
    },
  });
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
  if (q.isError && !q.data) return <FailureAlert failure={q.error} testId="object-error" />;
  // Start from the record as it is now (not a cached copy), so the form's version is current.
  if (!q.data || !q.isFetchedAfterMount) return <Loading />;
  return <ObjectEditor initial={q.data} expanded={expanded} onStatus={onStatus} />;
}

function Loading() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader role="progressbar" aria-label={t('common.loading')} />
    </Center>
  );
}

function ObjectToolbar({ data, mode, setMode, status }: { data: TObjectView | undefined; mode: ViewMode; setMode: (m: ViewMode) => void; status: AutosaveStatus }) {
  const { t } = useTranslation();
  const ref = data?.referenceNumber ?? '';
  const { menuButton, confirm } = useMenuDelete({
    run: () => deleteObject(data!.id),
    gone: (client) => {
      client.removeQueries({ queryKey: objectKeys.all });
      void client.invalidateQueries({ queryKey: objectKeys.lists });
    },
    done: t('objects.delete.done', { ref }),
  });
  const confirmDelete = () => confirm(t('objects.delete.title'), t('objects.delete.confirm', { ref }));

  return (
    <Paper withBorder p="xs" className="no-print">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={2} size="h3" data-testid="object-header">
          {data ? t('objects.view.header', { ref }) : t('title.object')}
        </Title>
        <Group gap="xs" wrap="wrap">
          <SaveStatus status={status} />
          <ModeSwitches mode={mode} setMode={setMode} doneLabel={t('objects.view.done')} disabled={!data} />
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" px="xs" aria-label={t('objects.view.actions')} data-testid="object-menu" ref={menuButton} disabled={!data}>
                <IconDots size={18} />
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {data && (
                <Menu.Item component={Link} to={href(OBJECT.screens.sheet, { id: data.id })} leftSection={<IconFileDescription size={16} />} data-testid="object-sheet">
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
