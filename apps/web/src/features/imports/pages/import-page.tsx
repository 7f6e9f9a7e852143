import { Alert, Anchor, Badge, Button, Card, Checkbox, FileInput, Group, Pagination, Radio, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TImportDuplicateChoice, TImportKind, TImportPreviewAnswer, TImportRunAnswer, TImportUploadAnswer } from '@crm/contract';
import { IconCloudUpload, IconDownload, IconEye } from '../../../components/icons.ts';
import { describeError } from '../../../lib/errors.ts';
import { useUploadLimits } from '../../../lib/use-upload-limits.ts';
import { downloadImportTemplate, previewImport, runImport, uploadImportFile } from '../api/imports.ts';

/** Rows of the preview on one page. */
const PAGE = 50;
const COUNT_KEYS = ['owners', 'objects', 'linked', 'skipped', 'withErrors'] as const;

/**
 * /Import (office administrators): owners, or properties with their owners, from an .xlsx or .csv.
 * The file is read on the server; each column is mapped to a field (proposed from its header);
 * the preview shows the rows as they will be stored with an error under each cell that does not
 * fit; the import stores them in one go, once.
 */
export function ImportPage() {
  const { t } = useTranslation();
  const { check } = useUploadLimits();
  const client = useQueryClient();
  const [kind, setKind] = useState<TImportKind>('owners');
  const [file, setFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<TImportUploadAnswer | null>(null);
  const [mapping, setMapping] = useState<string[]>([]);
  const [duplicates, setDuplicates] = useState<TImportDuplicateChoice>('link');
  const [preview, setPreview] = useState<TImportPreviewAnswer | null>(null);
  const [skipErrors, setSkipErrors] = useState(false);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [page, setPage] = useState(1);
  const [done, setDone] = useState<TImportRunAnswer | null>(null);
  const [busy, setBusy] = useState<'template' | 'read' | 'preview' | 'run' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const act = async (what: NonNullable<typeof busy>, work: () => Promise<void>) => {
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
    setFile(null);
    setSkipErrors(false);
    setError(null);
  };

  const read = () =>
    act('read', async () => {
      if (!file) return;
      const checked = await check([file]);
      const leftOut = checked.message(null);
      if (leftOut) {
        setError(leftOut);
        return;
      }
      const answer = await uploadImportFile(kind, file);
      setUpload(answer);
      setMapping(answer.mapping);
      setPreview(null);
      setDone(null);
    });

  const showPreview = () =>
    act('preview', async () => {
      if (!upload) return;
      setPreview(await previewImport({ token: upload.token, mapping, duplicates }));
      setPage(1);
    });

  const run = () =>
    act('run', async () => {
      if (!upload) return;
      setDone(await runImport({ token: upload.token, mapping, duplicates, skipErrors }));
      // The lists, the home page's counts and any record read before show what was brought in.
      await client.invalidateQueries();
    });

  // A changed mapping or choice is previewed again before it is imported.
  const remap = (next: string[]) => {
    setMapping(next);
    setPreview(null);
  };

  const fieldOptions = useMemo(() => [{ value: '', label: t('imports.ui.notImported') }, ...(upload?.fields ?? []).map((f) => ({ value: f.key, label: f.required ? `${f.label} *` : f.label }))], [upload, t]);
  const labelOf = (key: string) => upload?.fields.find((f) => f.key === key)?.label ?? key;
  const mappedColumns = mapping.map((key, i) => ({ key, header: upload?.headers[i] ?? '' })).filter((c) => c.key);
  const rows = (preview?.rows ?? []).filter((r) => !onlyProblems || Object.keys(r.errors).length > 0 || r.existing);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const shown = rows.slice((page - 1) * PAGE, page * PAGE);
  const blocked = !preview || !!preview.importedBefore || preview.missing.length > 0 || (preview.counts.withErrors > 0 && !skipErrors);

  if (done) {
    return (
      <Stack gap="md" maw={1100}>
        <Title order={2}>{t('title.import')}</Title>
        <Alert color="green" data-testid="import-done">
          <Stack gap="xs">
            <Text fw={700}>{t('imports.ui.done')}</Text>
            <Counts counts={done.counts} kind={upload?.kind ?? kind} />
            <Group gap="lg">
              {(done.counts.owners > 0 || done.counts.linked > 0) && (
                <Anchor component={Link} to="/Owners" data-testid="import-open-owners">
                  {t('imports.ui.openOwners')}
                </Anchor>
              )}
              {done.counts.objects > 0 && (
                <Anchor component={Link} to="/Objects" data-testid="import-open-objects">
                  {t('imports.ui.openObjects')}
                </Anchor>
              )}
              <Anchor component="button" type="button" onClick={startOver} data-testid="import-again">
                {t('imports.ui.again')}
              </Anchor>
            </Group>
          </Stack>
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>{t('title.import')}</Title>
      <Text size="sm" c="dimmed">
        {t('imports.ui.intro')}
      </Text>
      <Card withBorder padding="md" data-testid="import-file-card">
        <Stack gap="sm">
          <Radio.Group
            label={t('imports.ui.what')}
            value={kind}
            onChange={(v) => {
              setKind(v as TImportKind);
              startOver();
            }}
          >
            <Group gap="lg" mt={4}>
              <Radio value="owners" label={t('imports.kind.owners')} data-testid="import-kind-owners" />
              <Radio value="objects" label={t('imports.kind.objects')} data-testid="import-kind-objects" />
            </Group>
          </Radio.Group>
          <FileInput
            label={t('imports.ui.file')}
            placeholder={t('imports.ui.filePlaceholder')}
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={(f) => {
              setFile(f);
              setUpload(null);
              setPreview(null);
            }}
            leftSection={<IconCloudUpload size={16} />}
            clearable
            maw={480}
            data-testid="import-file"
          />
          <Group>
            <Button onClick={() => void read()} disabled={!file} loading={busy === 'read'} data-testid="import-read">
              {t('imports.ui.read')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              loading={busy === 'template'}
              onClick={() => void act('template', () => downloadImportTemplate(kind, `${t(`imports.kind.${kind}`)}.xlsx`))}
              data-testid="import-template"
            >
              {t('imports.ui.template')}
            </Button>
          </Group>
        </Stack>
      </Card>

      {error && (
        <Alert color="red" data-testid="import-error" style={{ whiteSpace: 'pre-line' }}>
          {error}
        </Alert>
      )}

      {upload && (
        <Card withBorder padding="md" data-testid="import-mapping">
          <Stack gap="sm">
            <Title order={3} size="h4">
              {t('imports.ui.mapping')}
            </Title>
            <Text size="sm">{t('imports.ui.rowsRead', { file: upload.fileName, count: upload.rowCount })}</Text>
            <Text size="sm" c="dimmed">
              {t('imports.ui.mappingHint')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
              {upload.headers.map((header, i) => (
                <Select
                  key={i}
                  label={header || `#${i + 1}`}
                  data={fieldOptions}
                  value={mapping[i] ?? ''}
                  onChange={(v) => remap(mapping.map((m, j) => (j === i ? (v ?? '') : m)))}
                  allowDeselect={false}
                  searchable
                  data-testid={`import-map-${i}`}
                />
              ))}
            </SimpleGrid>
            <Radio.Group
              label={t('imports.ui.duplicates')}
              value={duplicates}
              onChange={(v) => {
                setDuplicates(v as TImportDuplicateChoice);
                setPreview(null);
              }}
            >
              <Group gap="lg" mt={4}>
                <Radio value="link" label={t('imports.ui.duplicates.link')} data-testid="import-duplicates-link" />
                <Radio value="skip" label={t('imports.ui.duplicates.skip')} data-testid="import-duplicates-skip" />
              </Group>
            </Radio.Group>
            <Group>
              <Button leftSection={<IconEye size={16} />} onClick={() => void showPreview()} loading={busy === 'preview'} data-testid="import-preview">
                {t('imports.ui.preview')}
              </Button>
            </Group>
          </Stack>
        </Card>
      )}

      {upload && preview && (
        <Card withBorder padding="md" data-testid="import-preview-card">
          <Stack gap="sm">
            <Title order={3} size="h4">
              {t('imports.ui.preview')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('imports.ui.previewHint')}
            </Text>
            <Counts counts={preview.counts} kind={upload.kind} />
            {preview.importedBefore && (
              <Alert color="red" data-testid="import-imported-before">
                {t('imports.ui.importedBefore', { on: preview.importedBefore.on.replace('T', ' ').slice(0, 16), by: preview.importedBefore.by })}
              </Alert>
            )}
            {preview.missing.length > 0 && (
              <Alert color="red" data-testid="import-missing">
                {t('imports.ui.missing', { fields: preview.missing.map(labelOf).join(', ') })}
              </Alert>
            )}
            <Checkbox label={t('imports.ui.onlyProblems')} checked={onlyProblems} onChange={(e) => (setOnlyProblems(e.currentTarget.checked), setPage(1))} data-testid="import-only-problems" />
            {rows.length === 0 ? (
              <Text size="sm">{t('imports.ui.noProblems')}</Text>
            ) : (
              <div className="crm-table-scroll" style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('imports.ui.preview')}>
                <table className="crm-table crm-table-striped" data-testid="import-rows">
                  <thead>
                    <tr>
                      <th scope="col">{t('imports.ui.row')}</th>
                      {mappedColumns.map((c) => (
                        <th scope="col" key={c.key}>
                          {labelOf(c.key)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((r) => (
                      <tr key={r.row} data-testid="import-row">
                        <td style={{ minWidth: r.existing || r.errors[''] ? 160 : undefined }}>
                          <Stack gap={2}>
                            <Text size="sm">{r.row}</Text>
                            {r.existing && (
                              <Text size="xs" c="blue.9" data-testid="import-existing">
                                {t('imports.ui.existing', { name: r.existing.name })}
                              </Text>
                            )}
                            {r.errors[''] && (
                              <Text size="xs" c="red.9" data-testid="import-cell-error">
                                {r.errors['']}
                              </Text>
                            )}
                          </Stack>
                        </td>
                        {mappedColumns.map((c) => (
                          <td key={c.key} style={{ minWidth: 110 }}>
                            <Text size="sm">{r.values[c.key]}</Text>
                            {r.errors[c.key] && (
                              <Text size="xs" c="red.9" data-testid="import-cell-error">
                                {r.errors[c.key]}
                              </Text>
                            )}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {pages > 1 && (
              <Pagination
                size="sm"
                total={pages}
                value={page}
                onChange={setPage}
                getItemProps={(p) => ({ 'aria-label': t('table.pageN', { page: p }) })}
                getControlProps={(control) => ({ 'aria-label': t(`table.${control}Page`) })}
                data-testid="import-pager"
              />
            )}
            {preview.counts.withErrors > 0 && (
              <Checkbox label={t('imports.ui.skipErrors')} checked={skipErrors} onChange={(e) => setSkipErrors(e.currentTarget.checked)} data-testid="import-skip-errors" />
            )}
            <Group>
              <Button onClick={() => void run()} disabled={blocked} loading={busy === 'run'} data-testid="import-run">
                {t('imports.ui.run')}
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}

/** The counts of a preview or an import, as badges (those that apply to the kind). */
function Counts({ counts, kind }: { counts: TImportPreviewAnswer['counts']; kind: TImportKind }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" data-testid="import-counts">
      {COUNT_KEYS.filter((k) => kind === 'objects' || k !== 'objects').map((k) => (
        <Badge key={k} variant="light" size="lg" color={k === 'withErrors' && counts[k] ? 'red' : 'gray'} style={{ textTransform: 'none' }} data-testid={`import-count-${k}`}>
          {t(`imports.count.${k}`)}: {counts[k]}
        </Badge>
      ))}
    </Group>
  );
}
