import { Anchor, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useNavigate } from 'react-router';
import { ALERT, href } from '@crm/contract/resources';
import { formatDateTime } from '../../../lib/format.ts';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { ALERTS } from '../api/alerts.ts';
import './alerts.css';

/** /Alerts: newest first, unread rows bold; a row opens the alert. */
export function AlertsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <ListScreen
      {...ALERTS}
      rowClassName={(a) => (a.readedOn ? 'alert-read' : 'alert-unread')}
      onRowClick={(a) => navigate(href(ALERT.screens.view, { id: a.id }))}
      between={({ answer }) =>
        answer && answer.unreadCount > 0 ? (
          <Text size="sm" c="dimmed" data-testid="alerts-unread">
            {t('alerts.unreadOfTotal', { count: answer.unreadCount })}
          </Text>
        ) : null
      }
      columns={() => [
        {
          accessor: 'date',
          title: t('alerts.col.date'),
          noWrap: true,
          render: (a) => (
            <Anchor component={Link} to={href(ALERT.screens.view, { id: a.id })} size="sm" c="inherit" fw="inherit" onClick={(e) => e.stopPropagation()} data-testid="alert-link">
              {formatDateTime(a.date)}
            </Anchor>
          ),
        },
        { accessor: 'source', title: t('alerts.col.source'), noWrap: true },
        {
          accessor: 'content',
          title: t('alerts.col.content'),
          render: (a) => (
            // Two lines in the desktop table; the whole text on a phone's card (alerts.css), where reminders differ only at the end.
            <Text size="sm" fw="inherit" className="alert-row-content" data-testid="alert-row-content">
              {a.content}
            </Text>
          ),
        },
        { accessor: 'readedOn', title: t('alerts.col.readOn'), noWrap: true, render: (a) => (a.readedOn ? formatDateTime(a.readedOn) : t('alerts.unread')) },
        { accessor: 'readedBy', title: t('alerts.col.readBy'), visibleMediaQuery: '(min-width: 36em)' },
      ]}
    />
  );
}
