import { Button, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { confirmAction } from '../components/confirm-action.tsx';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { useNavigate, useParams } from 'react-router';
import { IconArrowsMaximize, IconArrowsMinimize, IconDots, IconEye, IconPencil } from '../components/icons.ts';
import { focusMenuButtonAfterDialog } from '../lib/menu-confirm.ts';
import { showBannerAfterNavigation } from '../lib/banner.ts';
import { describeError } from '../lib/errors.ts';
import { useGoBack } from '../components/go-back.ts';
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

/**
 * The Delete of a record's Actions menu (its button: `menuButton`): the spec's question (`confirm`),
 * the focus back on the menu's button when it closes; confirmed, the call (`run`), the record's
 * queries dropped (`gone`), the banner `done` and back to the screen before. A failure is said in a
 * dialog titled `failed`, where one is given.
 */
export function useMenuDelete(opts: { run: () => Promise<unknown>; gone: (client: QueryClient) => void; done: string; failed?: string }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const client = useQueryClient();
  const menuButton = useRef<HTMLButtonElement>(null);
  const remove = useMutation({
    mutationFn: opts.run,
    onSuccess: () => {
      opts.gone(client);
      showBannerAfterNavigation('success', opts.done);
      goBack();
    },
    onError: (e) => opts.failed && modals.open({ title: opts.failed, children: <Text size="sm">{describeError(e).message}</Text> }),
  });
  const confirm = (title: string, text: ReactNode) =>
    confirmAction(t, { title, text, testId: 'confirm-delete', onConfirm: () => remove.mutate(), onClose: () => focusMenuButtonAfterDialog(menuButton) });
  return { menuButton, confirm };
}

/** A record's Actions menu (its button named by `testId`, held by `button` for the focus after a dialog): its items the children. */
export function ActionsMenu({ testId, button, children }: { testId: string; button: RefObject<HTMLButtonElement | null>; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" rightSection={<IconDots size={16} />} data-testid={testId} ref={button}>
          {t('accounts.ui.view.actions')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
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
