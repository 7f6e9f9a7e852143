import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { checkUploads, describeLeftOut, type TPickedFile, type TUploadCheck } from './upload-limits.ts';
import { webConfigQuery } from './web-config.ts';

/**
 * The server's upload limits (GET /api/config, read once per session) with the check and its
 * message in the reader's language: what every file chooser and drop area runs before it sends.
 */
export function useUploadLimits() {
  const { t } = useTranslation();
  const limits = useQuery(webConfigQuery).data?.upload;
  return {
    limits,
    check: <F extends TPickedFile>(files: readonly F[], opts?: { already?: readonly TPickedFile[]; photos?: boolean }) => checkUploads(files, limits, opts),
    describe: (check: TUploadCheck<TPickedFile>, then: 'uploaded' | 'added' | null) => describeLeftOut(t, check, limits, then),
  };
}
