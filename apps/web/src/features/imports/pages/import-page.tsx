import { Alert, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { FileCard, ImportDone, MappingCard, PreviewCard } from '../components/import-cards.tsx';
import { useImport } from '../use-import.ts';

/**
 * /Import (office administrators): owners, properties with their owners, mandates, leads (clients’ requests) or deals, from an .xlsx or .csv.
 * The file is read on the server; each column is mapped to a field (proposed from its header);
 * the preview shows the rows as they will be stored with an error under each cell that does not
 * fit; the import stores them in one go, once.
 */
export function ImportPage() {
  const { t } = useTranslation();
  const flow = useImport((kind) => `${t(`imports.kind.${kind}`)}.xlsx`);
  const { upload, preview, done } = flow;
  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>{t('title.import')}</Title>
      {done ? (
        <ImportDone done={done} kind={upload?.kind ?? flow.kind} onAgain={flow.startOver} />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {t('imports.ui.intro')}
          </Text>
          <FileCard flow={flow} />
          {flow.error && (
            <Alert color="red" data-testid="import-error" style={{ whiteSpace: 'pre-line' }}>
              {flow.error}
            </Alert>
          )}
          {upload && <MappingCard flow={flow} upload={upload} />}
          {upload && preview && <PreviewCard flow={flow} upload={upload} preview={preview} />}
        </>
      )}
    </Stack>
  );
}
