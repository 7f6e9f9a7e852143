import { Button } from '@mantine/core';
import { confirmAction } from '../components/confirm-action.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { useNavigate, useParams } from 'react-router';
import { IconArrowsMaximize, IconArrowsMinimize, IconEye, IconPencil } from '../components/icons.ts';
import { focusMenuButtonAfterDialog } from '../lib/menu-confirm.ts';
import type { AutosaveStatus } from '../lib/use-autosave.ts';

/**
 * The records edited in place, field by field, saved 400 ms after each change (accounts, properties,
 * leads; decision 057): their address carries the mode (`/X/View/{id}/{viewMode}`: 0 view, 1 edit,
 * 2 expanded edit), their toolbar switches it, and their Actions menu ends with Delete.
 */
export type ViewMode = 0 | 1 | 2;

/** The mode an address asks for (anything else is view), and the switch to another (the address replaced, not pushed). */
export function useViewMode(base: string): { mode: ViewMode; setMode: (m: ViewMode) => void; param: string | undefined } {
  const params = useParams();
  const navigate = useNavigate();
  const raw = Number(params.viewMode ?? 0);
  return { mode: raw === 1 || raw === 2 ? raw : 0, setMode: (m) => navigate(`${base}/${params.id}/${m}`, { replace: true }), param: params.id };
}

/** Edit (or Done) and More (or Collapse): the toolbar's switches of the mode. */
export function ModeSwitches({ mode, setMode, doneLabel, disabled }: { mode: ViewMode; setMode: (m: ViewMode) => void; doneLabel: string; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Button
        variant={mode === 0 ? 'filled' : 'light'}
        leftSection={mode === 0 ? <IconPencil size={16} /> : <IconEye size={16} />}
        onClick={() => setMode(mode === 0 ? 1 : 0)}
        data-testid="edit-toggle"
        aria-pressed={mode !== 0}
        disabled={disabled}
      >
        {mode === 0 ? t('common.edit') : doneLabel}
      </Button>
      {mode !== 0 && (
        <Button variant="default" leftSection={mode === 2 ? <IconArrowsMinimize size={16} /> : <IconArrowsMaximize size={16} />} onClick={() => setMode(mode === 2 ? 1 : 2)} data-testid="more-toggle">
          {mode === 2 ? t('common.collapse') : t('common.more')}
        </Button>
      )}
    </>
  );
}

/** The Delete of an Actions menu: the spec's question, the focus back on the menu's button when it closes. */
export function useMenuDelete(menuButton: RefObject<HTMLButtonElement | null>) {
  const { t } = useTranslation();
  return (opts: { title: string; text: ReactNode; onConfirm: () => void }) =>
    confirmAction(t, { ...opts, testId: 'confirm-delete', onClose: () => focusMenuButtonAfterDialog(menuButton) });
}

/** The saving state of a record and of another saved beside it (a lead's client): an error first, then one still saving. */
export const combinedStatus = (...all: AutosaveStatus[]): AutosaveStatus => (all.includes('error') ? 'error' : (all.find((s) => s === 'saving' || s === 'pending') ?? all[0] ?? 'idle'));

/**
 * A record opened with Add in this tab and left for another screen before anything was entered is
 * discarded, so that blank records do not pile up (the server removes it only if nothing at all was
 * done with it). Switching modes is not leaving, nor is a reload (a job removes those after a day),
 * nor `stays` (a form about this record, which comes back to it).
 */
export function useDiscardIfLeftEmpty(opts: {
  id: number;
  added: Set<number>;
  /** The record's own addresses (`/objects/view/12`), lower case. */
  own: RegExp;
  busy: () => boolean;
  stays?: () => boolean;
  discard: (id: number) => Promise<{ discarded: boolean }>;
  gone: (client: ReturnType<typeof useQueryClient>) => void;
}) {
  const client = useQueryClient();
  const latest = useRef(opts);
  latest.current = opts;
  const { id } = opts;
  useEffect(
    () => () => {
      const o = latest.current;
      if (!o.added.has(id)) return;
      if (o.own.test(window.location.pathname.toLowerCase()) || o.stays?.()) return;
      o.added.delete(id);
      // Something typed and on its way (or saved): the record is not empty.
      if (o.busy()) return;
      void o
        .discard(id)
        .then(({ discarded }) => discarded && o.gone(client))
        .catch(() => undefined);
    },
    [id, client],
  );
}
