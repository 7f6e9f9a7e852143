import { Anchor, Group, Text, Tooltip } from '@mantine/core';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { TReservationRow } from '@crm/contract';
import { ACCOUNT, OBJECT, RESERVATION, href } from '@crm/contract/resources';
import { type DataTableColumn, NOT_WIDE_SCREEN, WIDE_SCREEN } from '../../../components/data-table.tsx';
import { IconAlertTriangle } from '../../../components/icons.ts';
import { formatDate, formatMoney2 } from '../../../lib/format.ts';
import { editColumn } from '../../../kit/edit-column.tsx';

const money = (n: number | null) => formatMoney2(n);

/** The booking's number, with a warning when it has a problem or awaits something (its text in the tooltip). */
function NumberCell({ r, t }: { r: TReservationRow; t: TFunction }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Anchor component={Link} to={href(RESERVATION.screens.view, { id: r.id })} data-testid="reservation-link">
        {r.reservationNumber}
      </Anchor>
      {(r.problem || r.awaiting) && (
        <Tooltip label={[r.problem && `${t('fields.reservation.problem')}: ${r.problem}`, r.awaiting && `${t('fields.reservation.awaiting')}: ${r.awaiting}`].filter(Boolean).join(' · ')} multiline w={260}>
          <span role="img" aria-label={t('reservations.ui.attention')} data-testid="reservation-warning" style={{ display: 'inline-flex', color: 'var(--mantine-color-orange-8)' }}>
            <IconAlertTriangle size={16} />
          </span>
        </Tooltip>
      )}
    </Group>
  );
}

/** Under 1600 px the three commissions share one column, each on a line under its name (no third party: no line). */
function CommissionsCell({ r, t }: { r: TReservationRow; t: TFunction }) {
  const lines = [
    ['comission', r.comission],
    ['comission3rdParty', r.comission3rdParty],
    ['finalComission', r.finalComission],
  ] as const;
  return lines
    .filter(([key, amount]) => key !== 'comission3rdParty' || (amount != null && Number(amount) !== 0))
    .map(([key, amount]) => (
      <div key={key}>
        <Text span size="xs" c="dimmed">
          {t(`reservations.ui.col.${key}Short`)}{' '}
        </Text>
        <span style={{ whiteSpace: 'nowrap' }}>{money(amount)}</span>
      </div>
    ));
}

/** The reservation list's columns: every one fits an office laptop's 1280 px (the commissions in one column there). */
export function reservationColumns(t: TFunction): DataTableColumn<TReservationRow>[] {
  const amount = (accessor: 'total' | 'paymentToOwner' | 'comission' | 'comission3rdParty' | 'finalComission', wideOnly = false, sortable = false): DataTableColumn<TReservationRow> => ({
    accessor,
    title: t(`fields.reservation.${accessor}`),
    sortable,
    textAlign: 'right',
    noWrap: true,
    ...(wideOnly ? { visibleMediaQuery: WIDE_SCREEN } : {}),
    render: (r) => money(r[accessor]),
  });
  return [
    { accessor: 'id', title: '#', sortable: true, noWrap: true, card: 'title', render: (r) => <NumberCell r={r} t={t} /> },
    { accessor: 'stage', title: t('fields.reservation.reservationStage') },
    {
      accessor: 'object',
      title: t('fields.reservation.objectId'),
      render: (r) => (
        // The codes on one line, the title in two at most (its whole text in the tooltip): a long
        // title no longer makes the row six lines tall at 1280 px.
        <Anchor component={Link} to={href(OBJECT.screens.view, { id: r.objectId })} className="reservation-object" title={r.objectTitle ?? undefined}>
          <span className="reservation-object-codes">
            #{r.objectReferenceNumber}
            {r.objectWebsiteCode ? ` · ${r.objectWebsiteCode}` : ''}
          </span>
          {r.objectTitle && <span className="line-clamp" style={{ ['--lines' as string]: 2 }}>{r.objectTitle}</span>}
        </Anchor>
      ),
    },
    {
      accessor: 'clientDisplayName',
      title: t('reservations.ui.col.client'),
      render: (r) =>
        r.clientAccountId ? (
          <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: r.clientAccountId })}>
            {r.clientDisplayName}
          </Anchor>
        ) : (
          r.clientDisplayName
        ),
    },
    { accessor: 'checkIn', title: t('fields.reservation.checkIn'), sortable: true, noWrap: true, render: (r) => formatDate(r.checkIn) },
    { accessor: 'duration', title: t('reservations.ui.col.nights'), textAlign: 'right' },
    { accessor: 'checkOut', title: t('fields.reservation.checkOut'), sortable: true, noWrap: true, render: (r) => formatDate(r.checkOut) },
    { accessor: 'sourceDisplayName', title: t('fields.reservation.sourceId') },
    amount('total', false, true),
    amount('paymentToOwner'),
    amount('comission', true),
    amount('comission3rdParty', true),
    amount('finalComission', true),
    { accessor: 'commissions', title: t('reservations.ui.col.commissions'), textAlign: 'right', visibleMediaQuery: NOT_WIDE_SCREEN, render: (r) => <CommissionsCell r={r} t={t} /> },
    editColumn(t('reservations.ui.col.edit'), (r) => href(RESERVATION.screens.edit, { id: r.id }), (r) => t('reservations.ui.editOne', { id: r.id })),
  ];
}
