import { Card, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { DOCUMENT_DESCRIPTION_MAX, DOCUMENT_NAME_MAX } from '@crm/contract/office-constants';
import type { TDocument } from '../api/documents.ts';
import { DocumentLink } from './document-link.tsx';

/** The document's name (a link to its file when read) and description: read, or typed with what was said of them. */
export function DocumentDetails({
  doc,
  name,
  description,
  readOnly,
  errors,
  onType,
}: {
  doc: TDocument;
  name: string;
  description: string;
  readOnly: boolean;
  errors: Record<string, string>;
  onType: (field: 'name' | 'description', value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm">
      {readOnly ? (
        <Stack gap="xs">
          <div>
            <Text size="xs" c="dimmed">
              {t('documents.ui.name')}
            </Text>
            <DocumentLink doc={doc} />
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('documents.ui.description')}
            </Text>
            <Text size="sm" className="pre-line" data-testid="document-description">
              {doc.description || t('documents.ui.noDescription')}
            </Text>
          </div>
        </Stack>
      ) : (
        <Stack gap="xs">
          <TextInput
            label={t('documents.ui.name')}
            description={t('documents.ui.nameHint')}
            required
            maxLength={DOCUMENT_NAME_MAX}
            value={name}
            onChange={(e) => onType('name', e.currentTarget.value)}
            error={errors.name}
            data-testid="document-name"
          />
          <Textarea
            label={t('documents.ui.description')}
            autosize
            minRows={3}
            maxRows={12}
            maxLength={DOCUMENT_DESCRIPTION_MAX}
            value={description}
            onChange={(e) => onType('description', e.currentTarget.value)}
            error={errors.description}
            data-testid="document-description-input"
          />
        </Stack>
      )}
    </Card>
  );
}
