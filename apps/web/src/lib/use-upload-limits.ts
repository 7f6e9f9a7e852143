import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from './use-translation.tsx';
import type { TUploadLimits } from '@crm/contract';
import { checkUploads, describeLeftOut, type TPickedFile, type TUploadCheck } from './upload-limits.ts';
import { webConfigQuery } from './web-config.ts';

export type TCheckedPick<F extends TPickedFile> = TUploadCheck<F> & {
  /** What to tell about the files left out, then how many of the others were `uploaded` or `added` (null: none left out). */
  message: (then: 'uploaded' | 'added' | null) => string | null;
};

/**
 * The server's upload limits (GET /api/config, read once per session) and the check every file
 * chooser and drop area runs before it sends. A pick made before the limits arrived waits for them
 * (they are asked once); if the server cannot say, the files go and the server decides.
 */
export function useUploadLimits() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const limits = useQuery(webConfigQuery).data?.upload;
  const check = async <F extends TPickedFile>(files: readonly F[], opts?: { already?: readonly TPickedFile[]; photos?: boolean }): Promise<TCheckedPick<F>> => {
    const known: TUploadLimits | undefined =
      limits ??
      (await client.ensureQueryData(webConfigQuery).then(
        (c) => c.upload,
        () => undefined,
      ));
    const checked = checkUploads(files, known, opts);
    return { ...checked, message: (then) => describeLeftOut(t, checked, known, then) };
  };
  return { limits, check };
}
