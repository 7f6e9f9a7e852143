import { Alert, Anchor, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TJobsAnswer } from '@crm/contract';
import { BACKUP, JOB, urlOf } from '@crm/contract/resources';
import { WholeListTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { call } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { useCookieState, useListState } from '../../../lib/list-state.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime, formatSize } from '../../../lib/format.ts';
import { useMedia } from '../../../lib/first-paint.ts';

type TJobRow = TJobsAnswer['items'][number];
const STATES = ['failed', 'queued', 'running', 'done'] as const;
type TJobState = (typeof STATES)[number];
/** The server answers the newest this many of a state. */
const LATEST = 100;

/**
 * /Jobs (office administrators): the background work (e-mails, publishing, the hourly checks) by
 * state, failed first; a failed job can be retried once what made it fail is fixed.
 */
export function JobsPage() {
  const { t } = useTranslation();
  const narrow = useMedia('(max-width: 36em)', false);
  const [state, setState] = useCookieState<TJobState>('Jobs.state', 'failed');
  // Newest first as the server sends them; the columns do not sort.
  const list = useListState('Jobs', { perPage: LATEST, sortBy: '', sortDir: 'desc' });
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ['jobs', state],
    queryFn: ({ signal }) => call(JOB.calls.list, { query: { state, limit: LATEST } }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 15000,
  });
  const retry = useMutation({
    mutationFn: (id: number) => call(JOB.calls.retry, { params: { id } }),
    onSuccess: (_, id) => {
      showBanner('success', t('jobs.ui.retried', { id }));
      void qc.invalidateQueries({ queryKey: ['jobs'] });
    },
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message, { details: d.details });
      void qc.invalidateQueries({ queryKey: ['jobs'] });
    },
  });
  const counts = q.data?.counts ?? {};
  // The title counts every job, as a list's title counts its records; the states split it, each
  // with its own count on the control (the title repeated the chosen state's: "0" over 16 jobs).
  const total = q.data ? STATES.reduce((n, s) => n + (counts[s] ?? 0), 0) : undefined;
  const columns: DataTableColumn<TJobRow>[] = [
    { accessor: 'id', title: t('jobs.ui.col.id'), noWrap: true },
    { accessor: 'name', title: t('jobs.ui.col.name'), render: (r) => t(`jobs.name.${r.name}`, { defaultValue: r.name }) },
    { accessor: 'attempts', title: t('jobs.ui.col.attempts'), noWrap: true, render: (r) => `${r.attempts} / ${r.maxAttempts}` },
    { accessor: 'runAt', title: t('jobs.ui.col.runAt'), noWrap: true, render: (r) => formatDateTime(r.runAt) },
    { accessor: 'finishedOn', title: t('jobs.ui.col.finishedOn'), noWrap: true, render: (r) => (r.finishedOn ? formatDateTime(r.finishedOn) : '') },
    {
      accessor: 'lastError',
      title: t('jobs.ui.col.lastError'),
      width: 420,
      render: (r) =>
        r.lastError ? (
          <Text size="xs" ff="monospace" lineClamp={4} title={r.lastError} style={{ overflowWrap: 'anywhere' }} data-testid="jobs-error">
            {r.lastError}
          </Text>
        ) : null,
    },
    ...(state === 'failed'
      ? [
          {
            accessor: 'retry',
            title: '',
            noWrap: true,
            card: 'action',
            render: (r: TJobRow) => (
              <Button size="xs" variant="light" loading={retry.isPending && retry.variables === r.id} onClick={() => retry.mutate(r.id)} data-testid="jobs-retry">
                {t('jobs.ui.retry')}
              </Button>
            ),
          } as DataTableColumn<TJobRow>,
        ]
      : []),
  ];
  return (
    <Stack gap="md">
      <ListHeader title={t('title.jobs')} count={total} testId="jobs" />
      <Text size="sm" c="dimmed">
        {t('jobs.ui.hint')}
      </Text>
      <BackupsCard />
      <SegmentedControl
        value={state}
        onChange={(v) => setState(v as TJobState)}
        data={STATES.map((s) => ({ value: s, label: `${t(`jobs.ui.state.${s}`)} (${counts[s] ?? 0})` }))}
        aria-label={t('title.jobs')}
        data-testid="jobs-state"
        // Four states with their counts are wider than a phone: there they stand one under another.
        orientation={narrow ? 'vertical' : 'horizontal'}
        fullWidth={narrow}
        style={narrow ? undefined : { alignSelf: 'flex-start' }}
      />
      <WholeListTable
        testId="jobs-table"
        list={list}
        query={q}
        columns={columns}
        scrollLabel={t('title.jobs')}
        empty={{ text: t('jobs.ui.empty') }}
      />
      {(counts[state] ?? 0) > LATEST && (
        <Text size="sm" c="dimmed" data-testid="jobs-latest">
          {t('jobs.ui.latest', { n: LATEST })}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The backups (decision 043): the last one (when, how big, its name), where they are kept, the next
 * daily one, a failure since the last, and "Back up now".
 */
function BackupsCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ['backups'],
    queryFn: ({ signal }) => call(BACKUP.calls.list, {}, { signal }),
    // Looked at again soon while one is being made, so that it shows once done.
    refetchInterval: (query) => (query.state.data?.pending ? 3000 : 60000),
  });
  const now = useMutation({
    mutationFn: () => call(BACKUP.calls.start, {}),
    onSuccess: () => {
      showBanner('success', t('backup.ui.started'));
      void qc.invalidateQueries({ queryKey: ['backups'] });
      void qc.invalidateQueries({ queryKey: ['jobs'] });
    },
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message, { details: d.details });
    },
  });
  const b = q.data;
  const last = b?.items[0];
  return (
    <Paper withBorder p="md" data-testid="backups">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">{t('backup.ui.title')}</Title>
          <Button size="xs" variant="light" loading={now.isPending || !!b?.pending} onClick={() => now.mutate()} data-testid="backups-now">
            {t('backup.ui.now')}
          </Button>
        </Group>
        {/* Not read (the server unreachable, a refusal): said, and asked again by the next refresh. */}
        {q.isError && !b && (
          <Text size="sm" c="red" data-testid="backups-error">
            {describeError(q.error).message}
          </Text>
        )}
        {b && (
          <>
            <Text size="sm" data-testid="backups-last">
              {last ? t('backup.ui.last', { at: formatDateTime(last.at), size: formatSize(last.size), name: last.name }) : t('backup.ui.none')}
              {/* Served by any instance, from the backups folder or the file store. */}
              {last && (
                <>
                  {' '}
                  <Anchor href={urlOf(BACKUP.calls.download, { params: { name: last.name } })} download={last.name} data-testid="backups-download">
                    {t('backup.ui.download')}
                  </Anchor>
                </>
              )}
            </Text>
            {b.pending && (
              <Text size="sm" c="dimmed" data-testid="backups-pending">
                {t('backup.ui.pending')}
              </Text>
            )}
            {b.failure && (
              <Alert color="red" p="xs" data-testid="backups-failure">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="backups-failure-reason">
                  {t('backup.ui.failedAt', { at: formatDateTime(b.failure.at) })} {t(`backup.reason.${b.failure.reason}`, { dir: b.dir })}
                  {b.failure.retryAt && ` ${t('backup.ui.retryAt', { at: formatDateTime(b.failure.retryAt) })}`}
                </Text>
                {/* The technical message, for whoever looks after the server. */}
                <Text size="xs" mt={4} style={{ overflowWrap: 'anywhere' }} data-testid="backups-failure-details">
                  {t('backup.ui.details', { error: b.failure.error })}
                </Text>
              </Alert>
            )}
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="backups-where">
              {b.inStore
                ? b.keep > 0
                  ? t('backup.ui.whereStore', { dir: b.dir, keep: b.keep })
                  : t('backup.ui.whereStoreAll', { dir: b.dir })
                : b.keep > 0
                  ? t('backup.ui.where', { dir: b.dir, keep: b.keep })
                  : t('backup.ui.whereAll', { dir: b.dir })}{' '}
              {b.daily ? (b.next ? t('backup.ui.next', { at: formatDateTime(b.next) }) : '') : t('backup.ui.off')}
            </Text>
            <Text size="sm" c="dimmed">
              {t(b.inStore ? 'backup.ui.copyOffStore' : 'backup.ui.copyOff')}
            </Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}
