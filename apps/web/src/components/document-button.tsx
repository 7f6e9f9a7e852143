// A record's document from the agency's templates (decision 084): the language chosen, then the PDF
// downloaded or stored among the record's files.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import type { TCulture } from '@crm/contract/constants';
import { DOC_TEMPLATE, urlOf } from '@crm/contract/resources';
import type { TDocSource } from '@crm/contract';
import { CultureChoice } from './culture-choice.tsx';
import { IconDownload, IconFile } from './icons.ts';
import { call } from '../lib/api.ts';
import { showBanner } from '../lib/banner.ts';
import { describeError } from '../lib/errors.ts';
import { currentCulture } from '../lib/i18n.ts';
import { useGuardedMutation } from '../lib/use-guarded-mutation.ts';
import { recordFilesKey } from './record-files-query.ts';

/**
 * "Document" on a mandate, a deal or a property: a dialog to choose the document's language, then
 * Download PDF (opened by the session's file cookie, saved under the server's name) or Save to the
 * record's files (one click; the record's files list reads again).
 */
export function DocumentButton({ source, id, label, title, testId }: { source: TDocSource; id: number; label?: string; title: string; testId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [culture, setCulture] = useState<TCulture>(currentCulture());
  const save = useGuardedMutation({
    mutationFn: () => call(DOC_TEMPLATE.calls.save, { body: { source, id, culture } }),
    meta: { handlesErrors: true },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: recordFilesKey(saved.parentType, saved.parentId) });
      showBanner('success', t('doctemplates.ui.savedToFiles', { name: saved.name }));
      setOpen(false);
    },
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message);
    },
  });
  return (
    <>
      <Button size="compact-sm" variant="light" leftSection={<IconFile size={14} />} onClick={() => setOpen(true)} data-testid={testId}>
        {label ?? t('doctemplates.ui.document')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={title} closeButtonProps={{ 'aria-label': t('common.close') }} data-testid="document-dialog">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('doctemplates.ui.documentHelp')}
          </Text>
          <CultureChoice id="document-language-label" label={t('doctemplates.ui.documentLanguage')} value={culture} onChange={setCulture} testId="document-language" />
          <Group gap="sm">
            <Button component="a" href={urlOf(DOC_TEMPLATE.calls.pdf, { params: { source, id }, query: { culture } })} download leftSection={<IconDownload size={16} />} data-testid="document-download">
              {t('doctemplates.ui.download')}
            </Button>
            <Button variant="default" leftSection={<IconFile size={16} />} loading={save.isPending} onClick={() => save.mutate()} data-testid="document-save">
              {t('doctemplates.ui.saveToFiles')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
