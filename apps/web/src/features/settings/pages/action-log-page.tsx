import { Anchor, NumberInput, Table, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TActionLogRow } from '@crm/contract';
import type { DataTableColumn } from '../../../components/data-table.tsx';
import { logDataRows, logDataText, logRefs, type LogRefs } from '../../../lib/log-data.ts';
import { logActionText, logEntityText, logMessageText, logRecordPath } from '../../../lib/log-texts.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { formatTypedNumber } from '../../../lib/typed-number.ts';
import { searchEmployees } from '../../../lib/pickers.ts';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { ACTION_LOG } from '../api/settings.ts';

/** The largest record number (a PostgreSQL integer). */
const MAX_RECORD_ID = 2147483647;

/** The page size of the action log (spec 001, 9): 20; a longer page for reading through a day. */
/** The filter's boxes share the card's row on a wide screen. */
const WIDE = { base: 12, sm: 6, lg: 'auto' } as const;
const NARROW = { base: 6, sm: 3, lg: 'auto' } as const;

/** A change's data as a two-column table (field, value) in the reader's words; anything else as text. */
export function DataCell({ entity, data, refs }: { entity: string; data: unknown; refs?: LogRefs }) {
  const { t } = useTranslation();
  if (data == null) return null;
  const rows = logDataRows(t, entity, data, refs);
  if (typeof data !== 'object' || Array.isArray(data)) return <Text size="xs">{logDataText(t, data)}</Text>;
  if (!rows.length) return null;
  return (
    // Fixed layout: the label takes 40 %, the value the rest, and a word breaks only when it is wider than its cell.
    <Table withRowBorders={false} verticalSpacing={0} horizontalSpacing={4} fz="xs" layout="fixed" className="log-data" data-testid="action-log-data">
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key}>
            {/* The label may wrap (at most 40 % of the width): on a phone a long label left its value a letter wide. */}
            <Table.Td c="dimmed" style={{ verticalAlign: 'top', width: '40%', overflowWrap: 'break-word' }}>
              {r.label}
            </Table.Td>
            {/* Words stay whole (a long code or address may still break): "αρραβώνας" lost its last letter to the next line. */}
            <Table.Td style={{ overflowWrap: 'break-word', wordBreak: 'normal', whiteSpace: 'pre-line' }}>
              {r.parts
                ? // The records it names (a deal's parties, a lead's client, a property…): each links to
                  // the record (one deleted since is its number).
                  r.parts.map((p, i) => (
                    <span key={i}>
                      {i > 0 && (p.sep ?? ', ')}
                      {p.role && `${p.role} `}
                      {p.to ? (
                        <Anchor component={Link} to={p.to} fz="xs" data-testid={p.role ? 'action-log-party' : 'action-log-ref'}>
                          {p.text}
                        </Anchor>
                      ) : (
                        p.text
                      )}
                      {p.note}
                    </span>
                  ))
                : r.value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** /ActionLog: who changed what, newest first, with its filters kept in a cookie. */
export function ActionLogPage() {
  const { t } = useTranslation();
  // A record number past any id is said at the field and never kept as the filter (it was kept in
  // the cookie and refused by the server on every later visit).
  const [idTooBig, setIdTooBig] = useState(false);
  return (
    <ListScreen
      {...ACTION_LOG}
      actions={({ answer }) =>
        answer?.totalCapped && (
          <Text size="sm" c="dimmed" data-testid="action-log-capped">
            {t('actionLog.ui.moreThan', { n: answer.totalRows })}
          </Text>
        )
      }
      // "By whom" either picks an employee, or is a part of a name or e-mail typed (anyone who signed
      // in, a former employee too): typing clears the pick, a pick clears what was typed.
      fields={({ filter, change }) => [
        { kind: 'picker', name: 'actionBy', textName: 'actionByName', label: t('actionLog.ui.filter.actionBy'), search: searchEmployees, queryKey: 'employee', also: (v) => (v ? { actionByText: '' } : {}), testId: 'action-log-filter-by', span: WIDE },
        { kind: 'text', name: 'actionByText', label: t('actionLog.ui.filter.actionByText'), maxLength: 200, also: () => (filter.actionBy ? { actionBy: null, actionByName: '' } : {}), testId: 'action-log-filter-by-text', span: WIDE },
        {
          kind: 'select',
          name: 'entity',
          label: t('actionLog.ui.filter.entity'),
          numeric: true,
          options: [{ value: 0, text: t('actionLog.ui.entity.any') }, { value: 1, text: t('actionLog.ui.entity.account') }, { value: 2, text: t('actionLog.ui.entity.object') }],
          testId: 'action-log-filter-entity',
          span: NARROW,
        },
        {
          kind: 'custom',
          key: 'entityId',
          span: NARROW,
          render: () => (
            <NumberInput
              label={t('actionLog.ui.filter.entityId')}
              value={filter.entityId ?? ''}
              min={1}
              allowDecimal={false}
              allowNegative={false}
              hideControls
              error={idTooBig ? t('validation.tooBig', { max: formatTypedNumber(MAX_RECORD_ID) }) : undefined}
              onChange={(v) => {
                const tooBig = typeof v === 'number' && v > MAX_RECORD_ID;
                setIdTooBig(tooBig);
                if (!tooBig) change({ entityId: typeof v === 'number' && v > 0 ? v : null });
              }}
              data-testid="action-log-filter-id"
            />
          ),
        },
        { kind: 'date', name: 'startDate', label: t('actionLog.ui.filter.from'), testId: 'action-log-filter-from', span: NARROW },
        { kind: 'date', name: 'endDate', label: t('actionLog.ui.filter.till'), testId: 'action-log-filter-till', span: NARROW },
      ]}
      columns={() => actionLogColumns(t)}
    />
  );
}

function actionLogColumns(t: TFunction): DataTableColumn<TActionLogRow>[] {
  return [
    { accessor: 'date', title: t('actionLog.ui.col.date'), noWrap: true, render: (r) => formatDateTime(r.date) },
    // The server's own work (the first administrator, publishing, reminders) is logged as "system".
    { accessor: 'actionBy', title: t('actionLog.ui.col.actionBy'), render: (r) => (r.actionBy === 'system' ? t('actionLog.ui.system') : r.actionBy === 'website' ? t('actionLog.ui.website') : r.actionBy) },
    { accessor: 'action', title: t('actionLog.ui.col.action'), render: (r) => logActionText(t, r.action) },
    { accessor: 'entity', title: t('actionLog.ui.col.entity'), render: (r) => logEntityText(t, r.entity) },
    {
      accessor: 'actionOver',
      title: t('actionLog.ui.col.actionOver'),
      render: (r) => {
        const to = logRecordPath(r.action, r.entity, r.entityId);
        return to ? (
          <Anchor component={Link} to={to} data-testid="action-log-over">
            {r.actionOver}
          </Anchor>
        ) : (
          r.actionOver
        );
      },
    },
    {
      accessor: 'message',
      title: t('actionLog.ui.col.message'),
      render: (r) => {
        const message = logMessageText(t, r.entity, r.message, r.data);
        return message ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {message}
          </Text>
        ) : null;
      },
    },
    { accessor: 'data', title: t('actionLog.ui.col.data'), width: 320, render: (r) => <DataCell entity={r.entity} data={r.data} refs={logRefs(t, r)} /> },
  ];
}
