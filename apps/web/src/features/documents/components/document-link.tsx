import { Anchor, Text } from '@mantine/core';
import type { TDocumentRow } from '@crm/contract';
import { isPreviewable } from '../../../components/file-links.tsx';
import { fileAnchor } from '../../../lib/download.ts';

/**
 * The document's name as a link to its first file at its own address (the session's file cookie
 * opens it): pictures and PDFs in a new tab titled by the file's name, other types downloaded under it.
 */
export function DocumentLink({ doc }: { doc: Pick<TDocumentRow, 'id' | 'name' | 'link' | 'files'> }) {
  const first = doc.files[0];
  if (!doc.link || !first) return <Text size="sm">{doc.name}</Text>;
  return (
    <Anchor {...fileAnchor(doc.link, first.userName, isPreviewable(first.systemName, first.mime))} data-testid="document-link">
      {doc.name}
    </Anchor>
  );
}
