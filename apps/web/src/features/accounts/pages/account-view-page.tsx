import { FailureAlert } from '../../../components/failure-alert.tsx';
import { Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ActivityList } from '../../../components/activity-list-lazy.tsx';
import { Assignments } from '../../../components/assignments.tsx';
import { RecordFiles } from '../../../components/record-files.tsx';
import { RevealTogether, useSectionReady } from '../../../components/reveal.tsx';
import {
  IconBuildingEstate,
  IconDownload,
  IconEraser,
  IconTargetArrow,
} from '../../../components/icons.ts';
import { describeError } from '../../../lib/errors.ts';
import { ApiError } from '../../../lib/api.ts';
import { RecordNotFound } from '../../../components/record-not-found.tsx';
import { useRecordOpened } from '../../../lib/recent.ts';
import type { AutosaveStatus } from '../../../lib/use-autosave.ts';
import { isOfficeAdmin, useSession } from '../../../lib/session.ts';
import type { TAccount } from '@crm/contract';
import { accountEditQuery, accountKeys, accountViewQuery, deleteAccount, downloadPersonalData } from '../api/account.ts';
import { EraseDialog } from '../components/erase-dialog.tsx';
import { showBanner } from '../../../lib/banner.ts';
import { AccountDetails } from '../components/account-details.tsx';
import { AccountEditor } from '../components/account-editor.tsx';
import { ServiceInfo } from '../components/service-info.tsx';
import { SaveStatus } from '../../../components/save-status.tsx';
import { ActionsMenu, ModeSwitches, useMenuDelete } from '../../../kit/view-modes.tsx';
import { DeleteMenuItem } from '../../../components/delete-menu-item.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { ACCOUNT, LEAD, OBJECT, href } from '@crm/contract/resources';

type ViewMode = 0 | 1 | 2;
const ENTITY_ACCOUNT = 2;

/** /Accounts/View/{id}/{viewMode?} (0 view, 1 edit, 2 expanded edit) and /contact/edit/{id}. */
export function AccountViewPage() {
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const id = Number(params.id);
  const raw = location.pathname.toLowerCase().startsWith('/contact/edit') ? 1 : Number(params.viewMode ?? 0);
  const [status, setStatus] = useState<AutosaveStatus>('idle');
  const setMode = (m: ViewMode) => navigate(href(ACCOUNT.screens.view, { id, viewMode: m }), { replace: true });

  const view = useQuery({ ...accountViewQuery(id), enabled: Number.isInteger(id) && id > 0 });
  // An erased person's account is only read: its data comes back as a new account, not by editing it.
  const mode: ViewMode = (raw === 1 || raw === 2) && !view.data?.erasedOn ? raw : 0;
  const gone = view.error instanceof ApiError && view.error.status === 404;
  useRecordOpened('account', id, view.data?.displayName || (view.data ? `#${id}` : null), gone);
  // An unknown or deleted account: one clear state, without the record's toolbar and cards.
  if (!Number.isInteger(id) || id <= 0 || gone) {
    return <RecordNotFound testId="account-not-found" />;
  }

  return (
    <Stack gap="sm" data-testid="account-page" data-mode={mode}>
      <AccountToolbar id={id} mode={mode} setMode={setMode} status={mode === 0 ? 'idle' : status} record={view.data} />
      {/* The sections load side by side and appear together, so none pushes another down. */}
      <RevealTogether key={id} gap="sm" fallback={<Loading />}>
        {mode === 0 ? <ViewBody id={id} /> : <EditBody key={id} id={id} expanded={mode === 2} onStatus={setStatus} />}
        <Assignments parent="account" parentId={id} editable />
        <RecordFiles entityType={ENTITY_ACCOUNT} id={id} editable={mode !== 0} />
        <ActivityList entityType={ENTITY_ACCOUNT} id={id} editable mail={{ accountId: id }} />
      </RevealTogether>
    </Stack>
  );
}

function ViewBody({ id }: { id: number }) {
  const q = useQuery(accountViewQuery(id));
  useSectionReady('details', !!q.data || q.isError);
  if (q.isError) return <FailureAlert failure={q.error} testId="account-error" />;
  if (!q.data) return <Loading />;
  return (
    <Stack gap="sm">
      <AccountDetails account={q.data} />
      <ServiceInfo record={q.data} />
    </Stack>
  );
}

function EditBody({ id, expanded, onStatus }: { id: number; expanded: boolean; onStatus: (s: AutosaveStatus) => void }) {
  const q = useQuery(accountEditQuery(id));
  useSectionReady('details', (!!q.data && q.isFetchedAfterMount) || (q.isError && !q.data));
  if (q.isError && !q.data) return <FailureAlert failure={q.error} testId="account-error" />;
  // Start from the record as it is now (not a cached copy), so the form's version is current.
  if (!q.data || !q.isFetchedAfterMount) return <Loading />;
  return <AccountEditor initial={q.data} expanded={expanded} onStatus={onStatus} />;
}

function Loading() {
  return <PageLoading />;
}

function AccountToolbar({ id, mode, setMode, status, record }: { id: number; mode: ViewMode; setMode: (m: ViewMode) => void; status: AutosaveStatus; record: TAccount | undefined }) {
  const { t } = useTranslation();
  // An employee's account, one with a sign-in, or a payments account (its statement goes with it) is
  // deleted by office admins only (the server says so too).
  const deletable = isOfficeAdmin(useSession()) || (!!record && !record.isEmploye && !record.signIn && !record.hasTransactions);
  // Leads are a client's or an owner's requests (a lead makes its account a client), properties an
  // owner's: an employee's account offers neither, unless that employee is a client or an owner of
  // the agency's too.
  const customer = !!record && !record.erasedOn && (!record.isEmploye || record.isClient || record.isOwner);
  const navigate = useNavigate();
  const { menuButton, confirm } = useMenuDelete({
    run: () => deleteAccount(id),
    gone: (client) => {
      client.removeQueries({ queryKey: accountKeys.view(id) });
      client.removeQueries({ queryKey: accountKeys.edit(id) });
      void client.invalidateQueries({ queryKey: ['accounts'] });
    },
    done: t('accounts.ui.delete.done'),
  });
  // A person's data (GDPR): the copy and the erasure are the office admins'.
  const privacy = isOfficeAdmin(useSession()) && !!record;
  const erased = !!record?.erasedOn;
  const [erasing, setErasing] = useState(false);
  const download = () =>
    downloadPersonalData(id).catch((e: unknown) => {
      const d = describeError(e);
      showBanner(d.type, d.message);
    });
  const confirmDelete = () =>
    confirm(
      t('accounts.ui.delete.title'),
      <>
        <Text size="sm">{t('accounts.ui.delete.confirm')}</Text>
        {/* Its payments statement goes with it: said before, not found out after. */}
        {record?.hasTransactions && (
          <Text size="sm" mt="xs" fw={600} c="red.8" data-testid="delete-account-payments">
            {t('accounts.ui.delete.withPayments')}
          </Text>
        )}
      </>,
    );

  return (
    <Paper withBorder p="xs" className="no-print">
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          {erased ? null : <ModeSwitches mode={mode} setMode={setMode} doneLabel={t('accounts.ui.view.done')} />}
          <SaveStatus status={status} />
        </Group>
        {/* Nothing to offer (an employee's account, to one who may not delete it): no empty menu. */}
        {(customer || deletable || privacy) && (
          <ActionsMenu testId="account-menu" button={menuButton}>
            {customer && (
              <>
                <Menu.Item leftSection={<IconTargetArrow size={16} />} onClick={() => navigate(href(LEAD.screens.add, { id }))} data-testid="add-lead">
                  {t('accounts.ui.view.addLead')}
                </Menu.Item>
                {/* A new property with this account as its owner, opened for editing. */}
                <Menu.Item leftSection={<IconBuildingEstate size={16} />} onClick={() => navigate(href(OBJECT.screens.add, { ownerId: id }))} data-testid="add-property">
                  {t('accounts.ui.view.addProperty')}
                </Menu.Item>
              </>
            )}
            {privacy && (
              <>
                {customer && <Menu.Divider />}
                <Menu.Item leftSection={<IconDownload size={16} />} onClick={() => void download()} data-testid="personal-data-download">
                  {t('accounts.ui.privacy.download')}
                </Menu.Item>
                {!erased && (
                  <Menu.Item
                    color="red"
                    className="menu-item-danger"
                    leftSection={<IconEraser size={16} />}
                    onClick={() => {
                      menuButton.current?.focus();
                      setErasing(true);
                    }}
                    data-testid="personal-data-erase"
                  >
                    {t('accounts.ui.privacy.erase')}
                  </Menu.Item>
                )}
              </>
            )}
            {deletable && (
              <>
                {(customer || privacy) && <Menu.Divider />}
                <DeleteMenuItem onClick={confirmDelete} testId="delete-account">
                  {t('accounts.ui.delete.menu')}
                </DeleteMenuItem>
              </>
            )}
          </ActionsMenu>
        )}
      </Group>
      {record && privacy && !erased && <EraseDialog account={record} opened={erasing} onClose={() => setErasing(false)} />}
    </Paper>
  );
}
