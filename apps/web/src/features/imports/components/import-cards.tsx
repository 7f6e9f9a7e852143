import { Alert, Anchor, Badge, Button, Card, Checkbox, FileInput, Group, Pagination, Radio, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TImportDuplicateChoice, TImportKind, TImportPreviewAnswer, TImportRunAnswer, TImportUploadAnswer } from '@crm/contract';
import { IconCloudUpload, IconDownload, IconEye } from '../../../components/icons.ts';
import type { ImportFlow } from '../use-import.ts';
import { TitledCard } from '../../../components/titled-card.tsx';

/** Rows of the preview on one page. */
const PAGE = 50;
/** The counts that apply to each kind of file. */
const COUNT_KEYS: Record<TImportKind, readonly (keyof TImportPreviewAnswer['counts'])[]> = {
  owners: ['owners', 'linked', 'skipped', 'withErrors'],
  objects: ['owners', 'objects', 'linked', 'skipped', 'withErrors'],
  mandates: ['mandates', 'skipped', 'withErrors'],
  leads: ['leads', 'clients', 'linked', 'skipped', 'withErrors'],
  deals: ['deals', 'clients', 'linked', 'skipped', 'withErrors'],
};

/** The counts of a preview or an import, as badges (those that apply to the kind). */
function Counts({ counts, kind }: { counts: TImportPreviewAnswer['counts']; kind: TImportKind }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" data-testid="import-counts">
      {COUNT_KEYS[kind].map((k) => (
        <Badge key={k} variant="light" size="lg" color={k === 'withErrors' && counts[k] ? 'red' : 'gray'} style={{ textTransform: 'none' }} data-testid={`import-count-${k}`}>
          {t(`imports.count.${k}`)}: {counts[k]}
        </Badge>
      ))}
    </Group>
  );
}

/** What the import did, the way to what it brought in, and another import. */
export function ImportDone({ done, kind, onAgain }: { done: TImportRunAnswer; kind: TImportKind; onAgain: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="green" data-testid="import-done">
      <Stack gap="xs">
        <Text fw={700}>{t('imports.ui.done')}</Text>
        <Counts counts={done.counts} kind={kind} />
        <Group gap="lg">
          {(done.counts.owners > 0 || done.counts.linked > 0) && (
            <Anchor component={Link} to="/Owners" data-testid="import-open-owners">
              {t('imports.ui.openOwners')}
            </Anchor>
          )}
          {(done.counts.objects > 0 || done.counts.mandates > 0) && (
            <Anchor component={Link} to="/Objects" data-testid="import-open-objects">
              {t('imports.ui.openObjects')}
            </Anchor>
          )}
          {done.counts.leads > 0 && (
            <Anchor component={Link} to="/Leads" data-testid="import-open-leads">
              {t('imports.ui.openLeads')}
            </Anchor>
          )}
          {done.counts.deals > 0 && (
            <Anchor component={Link} to="/Deals" data-testid="import-open-deals">
              {t('imports.ui.openDeals')}
            </Anchor>
          )}
          <Anchor component="button" type="button" onClick={onAgain} data-testid="import-again">
            {t('imports.ui.again')}
          </Anchor>
        </Group>
      </Stack>
    </Alert>
  );
}

/** What is brought in, from which file, and its template. */
export function FileCard({ flow }: { flow: ImportFlow }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" data-testid="import-file-card">
      <Stack gap="sm">
        <Radio.Group label={t('imports.ui.what')} value={flow.kind} onChange={(v) => flow.setKind(v as TImportKind)}>
          <Group gap="lg" mt={4}>
            <Radio value="owners" label={t('imports.kind.owners')} data-testid="import-kind-owners" />
            <Radio value="objects" label={t('imports.kind.objects')} data-testid="import-kind-objects" />
            <Radio value="mandates" label={t('imports.kind.mandates')} data-testid="import-kind-mandates" />
            <Radio value="leads" label={t('imports.kind.leads')} data-testid="import-kind-leads" />
            <Radio value="deals" label={t('imports.kind.deals')} data-testid="import-kind-deals" />
          </Group>
        </Radio.Group>
        <FileInput
          label={t('imports.ui.file')}
          placeholder={t('imports.ui.filePlaceholder')}
          accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          value={flow.file}
          onChange={flow.setFile}
          leftSection={<IconCloudUpload size={16} />}
          clearable
          maw={480}
          data-testid="import-file"
        />
        <Group>
          <Button onClick={() => void flow.read()} disabled={!flow.file} loading={flow.busy === 'read'} data-testid="import-read">
            {t('imports.ui.read')}
          </Button>
          <Button variant="default" leftSection={<IconDownload size={16} />} loading={flow.busy === 'template'} onClick={() => void flow.template()} data-testid="import-template">
            {t('imports.ui.template')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Each column of the file and the field it goes to (proposed from its header), and what a duplicate does. */
export function MappingCard({ flow, upload }: { flow: ImportFlow; upload: TImportUploadAnswer }) {
  const { t } = useTranslation();
  const fieldOptions = useMemo(() => [{ value: '', label: t('imports.ui.notImported') }, ...upload.fields.map((f) => ({ value: f.key, label: f.required ? `${f.label} *` : f.label }))], [upload, t]);
  return (
    <TitledCard title={t('imports.ui.mapping')} testId="import-mapping">
      <Text size="sm">{t('imports.ui.rowsRead', { file: upload.fileName, count: upload.rowCount })}</Text>
      <Text size="sm" data-testid="import-header-row">
        {t('imports.ui.headerRow', { row: upload.headerRow })}
      </Text>
      <Text size="sm" c="dimmed">
        {t('imports.ui.mappingHint')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
        {upload.headers.map((header, i) => (
          <Select
            key={i}
            label={header || `#${i + 1}`}
            data={fieldOptions}
            value={flow.mapping[i] ?? ''}
            onChange={(v) => flow.remap(flow.mapping.map((m, j) => (j === i ? (v ?? '') : m)))}
            allowDeselect={false}
            searchable
            data-testid={`import-map-${i}`}
          />
        ))}
      </SimpleGrid>
      {upload.kind === 'mandates' ? (
        // A mandate already in the CRM is always left out; its owners are found, never made.
        <Text size="sm" data-testid="import-mandates-hint">
          {t('imports.ui.mandateDuplicates')}
        </Text>
      ) : (
        <>
          {upload.kind === 'leads' && (
            // How a lead's client is found or made, how its choices are written, and that a stored lead is not made twice.
            <Text size="sm" data-testid="import-leads-hint">
              {t('imports.ui.leadsHint')}
            </Text>
          )}
          {upload.kind === 'deals' && (
            // How a deal's property and client are found, how its choices and amounts are written, and that a stored deal is not made twice.
            <Text size="sm" data-testid="import-deals-hint">
              {t('imports.ui.dealsHint')}
            </Text>
          )}
          <Radio.Group label={t('imports.ui.duplicates')} value={flow.duplicates} onChange={(v) => flow.setDuplicates(v as TImportDuplicateChoice)}>
            <Group gap="lg" mt={4}>
              <Radio value="link" label={t('imports.ui.duplicates.link')} data-testid="import-duplicates-link" />
              <Radio value="skip" label={t('imports.ui.duplicates.skip')} data-testid="import-duplicates-skip" />
            </Group>
          </Radio.Group>
        </>
      )}
      <Group>
        <Button leftSection={<IconEye size={16} />} onClick={() => void flow.showPreview()} loading={flow.busy === 'preview'} data-testid="import-preview">
          {t('imports.ui.preview')}
        </Button>
      </Group>
    </TitledCard>
  );
}

type PreviewRow = TImportPreviewAnswer['rows'][number];

/** The preview's rows as they will be stored, an error under each cell that does not fit. */
function PreviewTable({ rows, columns, labelOf }: { rows: PreviewRow[]; columns: string[]; labelOf: (key: string) => string }) {
  const { t } = useTranslation();
  const error = (text: string | undefined) =>
    text && (
      <Text size="xs" c="red.9" data-testid="import-cell-error">
        {text}
      </Text>
    );
  return (
    <div className="crm-table-scroll" style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('imports.ui.preview')}>
      <table className="crm-table crm-table-striped" data-testid="import-rows">
        <thead>
          <tr>
            <th scope="col">{t('imports.ui.row')}</th>
            {columns.map((key) => (
              <th scope="col" key={key}>
                {labelOf(key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.row} data-testid="import-row">
              <td style={{ minWidth: r.existing || r.errors[''] ? 160 : undefined }}>
                <Stack gap={2}>
                  <Text size="sm">{r.row}</Text>
                  {r.existing && (
                    <Text size="xs" c="blue.9" data-testid="import-existing">
                      {t('imports.ui.existing', { name: r.existing.name })}
                    </Text>
                  )}
                  {error(r.errors[''])}
                </Stack>
              </td>
              {columns.map((key) => (
                <td key={key} style={{ minWidth: 110 }}>
                  <Text size="sm">{r.values[key]}</Text>
                  {error(r.errors[key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The preview: its counts, what stops the import, the rows (only those with problems, if asked), and Import. */
export function PreviewCard({ flow, upload, preview }: { flow: ImportFlow; upload: TImportUploadAnswer; preview: TImportPreviewAnswer }) {
  const { t } = useTranslation();
  const [onlyProblems, setOnlyProblems] = useState(false);
  // A new preview starts on its first page.
  const [at, setAt] = useState({ preview, page: 1 });
  const page = at.preview === preview ? at.page : 1;
  const setPage = (p: number) => setAt({ preview, page: p });
  const labelOf = (key: string) => upload.fields.find((f) => f.key === key)?.label ?? key;
  const columns = flow.mapping.filter((key) => key);
  const rows = preview.rows.filter((r) => !onlyProblems || Object.keys(r.errors).length > 0 || r.existing);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const blocked = !!preview.importedBefore || preview.missing.length > 0 || (preview.counts.withErrors > 0 && !flow.skipErrors);
  return (
    <TitledCard title={t('imports.ui.preview')} hint={t('imports.ui.previewHint')} testId="import-preview-card">
      <Counts counts={preview.counts} kind={upload.kind} />
      <Text size="sm" data-testid="import-preview-header-row">
        {t('imports.ui.headerRow', { row: preview.headerRow })}
      </Text>
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
      {rows.length === 0 ? <Text size="sm">{t('imports.ui.noProblems')}</Text> : <PreviewTable rows={rows.slice((page - 1) * PAGE, page * PAGE)} columns={columns} labelOf={labelOf} />}
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
        <Checkbox label={t('imports.ui.skipErrors')} checked={flow.skipErrors} onChange={(e) => flow.setSkipErrors(e.currentTarget.checked)} data-testid="import-skip-errors" />
      )}
      <Group>
        <Button onClick={() => void flow.run()} disabled={blocked} loading={flow.busy === 'run'} data-testid="import-run">
          {t('imports.ui.run')}
        </Button>
      </Group>
    </TitledCard>
  );
}
