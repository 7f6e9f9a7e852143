import { Group, Pagination, Select, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { LinkKind } from '@crm/contract/constants';
import type { TActivity } from '@crm/contract';
import { IconCircleCheck, IconClock } from '../icons.ts';
import { ACCOUNT, DEAL, LEAD, OBJECT, RESERVATION, VIEWING, href } from '@crm/contract/resources';

export type TActivityLinkView = TActivity['links'][number];

/** The screen of a linked record, where it has one. */
export function linkPath(entity: number, id: number): string | undefined {
  switch (entity) {
    case LinkKind.Account:
      return href(ACCOUNT.screens.view, { id });
    case LinkKind.Object:
      return href(OBJECT.screens.view, { id });
    case LinkKind.Demand:
      return href(LEAD.screens.view, { id });
    case LinkKind.Viewing:
      return href(VIEWING.screens.view, { id });
    case LinkKind.Deal:
      return href(DEAL.screens.view, { id });
    case LinkKind.Reservation:
      return href(RESERVATION.screens.view, { id });
    default:
      return undefined;
  }
}

/** Search hit kinds -> link kinds: leads are Demand links, objects Object, everything else Account. */
export function linkKindOfHit(entity: string | undefined): number {
  if (entity === 'Lead') return LinkKind.Demand;
  if (entity === 'Object') return LinkKind.Object;
  return LinkKind.Account;
}

/**
 * One linked record as a link. A contact shows its name; other kinds say what they are, as their
 * text may be just a number: "Property: #1042".
 */
export function RecordLink({ link }: { link: TActivityLinkView }) {
  const { t } = useTranslation();
  const to = linkPath(link.entity, link.id);
  const text = link.entity === LinkKind.Account ? link.description : `${t(`activities.linkKind.${link.entity}`)}: ${link.description}`;
  return to ? (
    <Link to={to} className="cell-link mantine-focus-auto" data-testid="activity-record-link">
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

export function RecordLinks({ links }: { links: TActivityLinkView[] }) {
  return (
    <span className="cell-links">
      {links.map((l, i) => (
        <span key={`${l.entity}:${l.id}`}>
          <RecordLink link={l} />
          {i < links.length - 1 ? ', ' : ''}
        </span>
      ))}
    </span>
  );
}

/** State of an activity as used in styles and tests: none (not an action), todo, complete. */
export const stateOf = (done: boolean | null): 'none' | 'todo' | 'complete' => (done === null ? 'none' : done ? 'complete' : 'todo');

/**
 * To do: a red icon; complete: a completed icon; not an action: nothing. A plain element (named
 * for assistive technology, titled for the mouse): a table shows one per row.
 */
export function StateIcon({ done }: { done: boolean | null }) {
  const { t } = useTranslation();
  if (done === null) return null;
  const state = done ? 'complete' : 'todo';
  const label = t(`activities.state.${state}`);
  return (
    <span className="state-icon" data-state={state} role="img" aria-label={label} title={label} data-testid={`state-${state}`}>
      {done ? <IconCircleCheck size={14} aria-hidden /> : <IconClock size={14} aria-hidden />}
    </span>
  );
}

/** API date-times are 'YYYY-MM-DDTHH:mm:ss'; Mantine's pickers use 'YYYY-MM-DD HH:mm:ss'. */
export const toPickerValue = (s: string | null) => (s ? s.replace('T', ' ') : null);
export const fromPickerValue = (s: string | null) => (s ? `${s.slice(0, 10)}T${(s.slice(11) || '00:00:00').padEnd(8, ':00').slice(0, 8)}` : null);

/**
 * Back to the last page there is when the one shown is past it: actions completed elsewhere, or the
 * last activity of the last page deleted, left the list on an empty page that said there was nothing
 * (and hid its pager). `total` is the server's count for this very page (undefined while an earlier
 * page's answer stands in).
 */
export function useBackToLastPage(page: number, perPage: number, total: number | undefined, goTo: (page: number) => void) {
  useEffect(() => {
    if (total === undefined || total <= 0) return;
    const last = Math.ceil(total / perPage);
    if (page > last) goTo(last);
  }, [page, perPage, total, goTo]);
}

/** Rows per page and the pager under an activity table. */
export function PagerFooter(props: {
  total: number;
  perPage: number;
  page: number;
  pageSizes: { value: string; label: string }[];
  onPerPage: (perPage: number) => void;
  onPage: (page: number) => void;
  testId: string;
  totalText?: string;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(props.total / props.perPage));
  if (props.total <= 0) return null;
  return (
    <Group justify="space-between">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {t('activities.perPage')}
        </Text>
        <Select
          w={110}
          size="xs"
          allowDeselect={false}
          value={String(props.perPage)}
          onChange={(v) => props.onPerPage(Number(v ?? 20))}
          data={props.pageSizes}
          aria-label={t('activities.perPage')}
          data-testid={`${props.testId}-per-page`}
        />
        {props.totalText && (
          <Text size="sm" c="dimmed">
            {props.totalText}
          </Text>
        )}
      </Group>
      {pages > 1 && (
        <Pagination
          size="sm"
          total={pages}
          value={Math.min(props.page, pages)}
          onChange={props.onPage}
          getItemProps={(page) => ({ 'aria-label': t('table.pageN', { page }) })}
          getControlProps={(control) => ({ 'aria-label': t(`table.${control}Page`) })}
          data-testid={`${props.testId}-pager`}
        />
      )}
    </Group>
  );
}
