import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TImportDuplicateChoice, TImportKind, TImportPreviewAnswer, TImportRunAnswer, TImportUploadAnswer } from '@crm/contract';
import { describeError } from '../../lib/errors.ts';
import { useUploadLimits } from '../../lib/use-upload-limits.ts';
import { downloadImportTemplate, previewImport, runImport, uploadImportFile } from './api/imports.ts';

export type ImportStep = 'template' | 'read' | 'preview' | 'run';

/**
 * The import's steps and what each holds: the kind and the file, the server's reading of it (its
 * columns and their proposed fields), the mapping and the duplicates' choice, the preview, and what
 * the import did. One step runs at a time; a failed one says why and keeps what was chosen.
 */
export function useImport(templateName: (kind: TImportKind) => string) {
  const { check } = useUploadLimits();
  const client = useQueryClient();
  const [kind, setKindState] = useState<TImportKind>('owners');
  const [file, setFileState] = useState<File | null>(null);
  const [upload, setUpload] = useState<TImportUploadAnswer | null>(null);
  const [mapping, setMapping] = useState<string[]>([]);
  const [duplicates, setDuplicatesState] = useState<TImportDuplicateChoice>('link');
  const [preview, setPreview] = useState<TImportPreviewAnswer | null>(null);
  const [skipErrors, setSkipErrors] = useState(false);
  const [done, setDone] = useState<TImportRunAnswer | null>(null);
  const [busy, setBusy] = useState<ImportStep | null>(null);
  const [error, setError] = useState<string | null>(null);

  const act = async (what: ImportStep, work: () => Promise<void>) => {
    if (busy) return;
    setBusy(what);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setBusy(null);
    }
  };

  const startOver = () => {
    setUpload(null);
    setPreview(null);
    setDone(null);
    setFileState(null);
    setSkipErrors(false);
    setError(null);
  };

  return {
    kind,
    file,
    upload,
    mapping,
    duplicates,
    preview,
    skipErrors,
    done,
    busy,
    error,
    setSkipErrors,
    startOver,
    setKind: (k: TImportKind) => {
      setKindState(k);
      startOver();
    },
    setFile: (f: File | null) => {
      setFileState(f);
      setUpload(null);
      setPreview(null);
    },
    // A changed mapping or choice is previewed again before it is imported.
    remap: (next: string[]) => {
      setMapping(next);
      setPreview(null);
    },
    setDuplicates: (d: TImportDuplicateChoice) => {
      setDuplicatesState(d);
      setPreview(null);
    },
    template: () => act('template', () => downloadImportTemplate(kind, templateName(kind))),
    read: () =>
      act('read', async () => {
        if (!file) return;
        const leftOut = (await check([file])).message(null);
        if (leftOut) {
          setError(leftOut);
          return;
        }
        const answer = await uploadImportFile(kind, file);
        setUpload(answer);
        setMapping(answer.mapping);
        setPreview(null);
        setDone(null);
      }),
    showPreview: () =>
      act('preview', async () => {
        if (upload) setPreview(await previewImport({ token: upload.token, mapping, duplicates }));
      }),
    run: () =>
      act('run', async () => {
        if (!upload) return;
        setDone(await runImport({ token: upload.token, mapping, duplicates, skipErrors }));
        // The lists, the home page's counts and any record read before show what was brought in.
        await client.invalidateQueries();
      }),
  };
}

export type ImportFlow = ReturnType<typeof useImport>;
