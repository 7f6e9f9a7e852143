import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { RecordToolbar } from '../components/record-toolbar.tsx';
import { useTranslation } from '../lib/use-translation.tsx';
import type { RecordFormProps } from './record.tsx';

/**
 * A record screen's page (recordScreen): the toolbar of its mode (components/record-toolbar.tsx),
 * headed by `title` or, for a new record, by the screen's `.new` text; its Save and Delete the
 * screen's `actions`, their state and error the form's; under it the screen's sections.
 */
export function RecordPage({ of, title, form, actions, titleAside, viewActions, children }: {
  of: RecordFormProps<{ id: number | null }>;
  title: string;
  form: { busy: boolean; error: string | null };
  actions: { save: () => unknown; remove: () => unknown };
  titleAside?: ReactNode;
  viewActions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { mode, screen } = of;
  return (
    <Stack gap="sm" data-testid={`${screen.testId}-page`} data-mode={mode}>
      <RecordToolbar
        title={mode === 'create' ? t(`${screen.texts}.new`) : title}
        titleAside={titleAside}
        mode={mode}
        backText={t(`${screen.texts}.back`)}
        route={screen.route}
        id={of.record.id}
        onDelete={() => void actions.remove()}
        onSave={() => void actions.save()}
        state={form}
        testId={screen.testId}
        viewActions={viewActions}
      />
      {children}
    </Stack>
  );
}
