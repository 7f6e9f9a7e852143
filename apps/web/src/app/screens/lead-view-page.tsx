import { FailureAlert } from '../../components/failure-alert.tsx';
import { Alert, Center, Group, Loader, Menu, Paper, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { useNavigate, useParams } from 'react-router';
import { JUST_READ_MS } from '../../lib/freshness.ts';
import { ActivityList } from '../../components/activity-list-lazy.tsx';
import { Assignments } from '../../components/assignments.tsx';
import { useRecordOpened } from '../../lib/recent.ts';
import { RecordNotFound } from '../../components/record-not-found.tsx';
import { SaveStatus } from '../../components/save-status.tsx';
import { RevealTogether, useSectionReady } from '../../components/reveal.tsx';
import { ApiError } from '../../lib/api.ts';
import type { AutosaveStatus } from '../../lib/use-autosave.ts';
import { accountEditQuery } from '../../features/accounts/api/account.ts';
import { AccountEditor } from '../../features/accounts/components/account-editor.tsx';
import { deleteLead, discardLead, justAddedLeads, leadKeys, leadQuery } from '../../features/leads/api/leads.ts';
import { LeadDetails } from '../../features/leads/components/lead-details.tsx';
import { LeadEnquiryMail } from '../../features/leads/components/lead-enquiry-mail.tsx';
import { LeadEditor } from '../../features/leads/components/lead-editor.tsx';
import { LeadMatches } from '../../features/leads/components/lead-matches.tsx';
import { LeadObjects } from '../../features/leads/components/lead-objects.tsx';
import { LeadShortlists } from '../../features/leads/components/lead-shortlists.tsx';
import { LeadDeals } from '../../features/deals/components/lead-deals.tsx';
import { LeadViewings } from '../../features/viewings/components/lead-viewings.tsx';
import { ActionsMenu, ModeSwitches, combinedStatus, useDiscardIfLeftEmpty, useMenuDelete } from '../../kit/view-modes.tsx';
import { DeleteMenuItem } from '../../components/delete-menu-item.tsx';
import { LEAD, VIEWING, href } from '@crm/contract/resources';

type ViewMode = 0 | 1 | 2;
/** Activities link to a lead as a Demand (link kind 4). */
const ENTITY_DEMAND = 4;

/** /Leads/View/{id}/{viewMode?}: 0 view, 1 edit, 2 expanded edit (the lead and its client's account). */
export function LeadViewPage() {
  const params = useParams();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const id = Number(params.id);
  const raw = Number(params.viewMode ?? 0);
  const mode: ViewMode = raw === 1 || raw === 2 ? raw : 0;
  const [status, setStatus] = useState<AutosaveStatus>('idle');
  const [accountStatus, setAccountStatus] = useState<AutosaveStatus>('idle');
  const setMode = (m: ViewMode) => navigate(href(LEAD.screens.view, { id, viewMode: m }), { replace: true });
  const valid = Number.isInteger(id) && id > 0;
  const q = useQuery({ ...leadQuery(id), enabled: valid, staleTime: mode === 0 ? JUST_READ_MS : 0 });
  useDiscardLeadIfLeftEmpty(id, status, accountStatus);
  const gone = q.error instanceof ApiError && q.error.status === 404;
  useRecordOpened('lead', id, q.data ? [`#${id}`, q.data.account].filter(Boolean).join(' · ') : null, gone);

  if (!valid || gone) return <RecordNotFound testId="lead-not-found" />;
  const shownStatus: AutosaveStatus = mode === 0 ? 'idle' : combinedStatus(status, accountStatus);

  return (
    <Stack gap="sm" data-testid="lead-page" data-mode={mode}>
      <Title order={2} size="h3" data-testid="lead-title">
        {t('leads.ui.title', { id })}
        {q.data?.account ? ` · ${q.data.account}` : ''}
      </Title>
      <LeadToolbar id={id} mode={mode} setMode={setMode} status={shownStatus} />
      {/* A lead for one of the staff (made from their account, or their name picked as the client) is
          allowed, an employee may buy a flat too, but said: it may also be the wrong person picked. */}
      {q.data?.accountIsEmploye && (
        <Alert color="blue" variant="light" role="note" p="xs" data-testid="lead-client-employee">
          {t('leads.ui.clientIsEmployee', { name: q.data.account })}
        </Alert>
      )}
      <RevealTogether key={`${id}-${mode}`} gap="sm" fallback={<Loading />}>
        <LeadBody id={id} mode={mode} onStatus={setStatus} onAccountStatus={setAccountStatus} />
        <Assignments parent="lead" parentId={id} editable />
        {mode === 0 && <ActivityList entityType={ENTITY_DEMAND} id={id} editable mail={{ leadId: id }} />}
      </RevealTogether>
    </Stack>
  );
}

/** A lead opened with Add and left before anything was entered is discarded (kit/view-modes.tsx). */
function useDiscardLeadIfLeftEmpty(id: number, status: AutosaveStatus, accountStatus: AutosaveStatus) {
  const statuses = useRef({ status, accountStatus });
  statuses.current = { status, accountStatus };
  useDiscardIfLeftEmpty({
    id,
    added: justAddedLeads,
    own: new RegExp(`^/leads/view/${id}(/|$)`),
    busy: () => statuses.current.status !== 'idle' || statuses.current.accountStatus !== 'idle',
    discard: discardLead,
    gone: (client) => {
      client.removeQueries({ queryKey: leadKeys.one(id) });
      void client.invalidateQueries({ queryKey: leadKeys.lists });
    },
  });
}

function LeadBody({ id, mode, onStatus, onAccountStatus }: { id: number; mode: ViewMode; onStatus: (s: AutosaveStatus) => void; onAccountStatus: (s: AutosaveStatus) => void }) {
  const q = useQuery({ ...leadQuery(id), staleTime: mode === 0 ? JUST_READ_MS : 0 });
  const fresh = mode === 0 ? !!q.data : !!q.data && q.isFetchedAfterMount;
  useSectionReady('details', fresh || (q.isError && !q.data));
  if (q.isError && !q.data) return <FailureAlert failure={q.error} testId="lead-error" />;
  if (!q.data || !fresh) return <Loading />;
  const lead = q.data;
  if (mode === 0)
    return (
      <Stack gap="sm">
        <LeadDetails lead={lead} />
        <LeadEnquiryMail leadId={lead.id} />
        <LeadObjects lead={lead} editable={false} />
        <LeadShortlists lead={lead} />
        <LeadMatches leadId={lead.id} asksFor={!!(lead.forPurchase || lead.forRent || lead.forShortRent)} />
        <LeadViewings leadId={lead.id} />
        <LeadDeals leadId={lead.id} />
      </Stack>
    );
  return (
    <Stack gap="sm">
      <LeadEditor initial={lead} onStatus={onStatus} />
      <LeadObjects lead={lead} editable />
      <LeadMatches leadId={lead.id} asksFor={!!(lead.forPurchase || lead.forRent || lead.forShortRent)} />
      {mode === 2 && lead.accountId != null && <ClientEditor accountId={lead.accountId} onStatus={onAccountStatus} />}
    </Stack>
  );
}

/** Expanded mode: the client's account is edited beside the lead, saved the same way. */
function ClientEditor({ accountId, onStatus }: { accountId: number; onStatus: (s: AutosaveStatus) => void }) {
  const { t } = useTranslation();
  const q = useQuery(accountEditQuery(accountId));
  if (q.isError && !q.data) return <FailureAlert failure={q.error} testId="lead-error" />;
  if (!q.data || !q.isFetchedAfterMount) return <Loading />;
  return (
    <Paper withBorder p="sm" data-testid="lead-client-editor">
      <Title order={3} size="h5" mb="xs">
        {t('leads.ui.clientAccount')}
      </Title>
      <AccountEditor initial={q.data} expanded={false} onStatus={onStatus} />
    </Paper>
  );
}

function Loading() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}

function LeadToolbar({ id, mode, setMode, status }: { id: number; mode: ViewMode; setMode: (m: ViewMode) => void; status: AutosaveStatus }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { menuButton, confirm } = useMenuDelete({
    run: () => deleteLead(id),
    gone: (client) => {
      client.removeQueries({ queryKey: leadKeys.one(id) });
      void client.invalidateQueries({ queryKey: leadKeys.lists });
    },
    done: t('leads.ui.deleted'),
    failed: t('leads.ui.deleteFailed'),
  });
  const confirmDelete = () => confirm(t('leads.ui.deleteTitle'), t('leads.ui.deleteConfirm'));
  return (
    <Paper withBorder p="xs" className="no-print">
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <ModeSwitches mode={mode} setMode={setMode} doneLabel={t('accounts.ui.view.done')} />
          <SaveStatus status={status} />
        </Group>
        <ActionsMenu testId="lead-menu" button={menuButton}>
          <Menu.Item onClick={() => navigate(href(VIEWING.screens.add, undefined, { demandId: id }))} data-testid="lead-arrange-viewing">
            {t('leads.ui.arrangeViewing')}
          </Menu.Item>
          <Menu.Divider />
          <DeleteMenuItem onClick={confirmDelete} testId="delete-lead">
            {t('leads.ui.deleteMenu')}
          </DeleteMenuItem>
        </ActionsMenu>
      </Group>
    </Paper>
  );
}
