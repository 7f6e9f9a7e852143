/** A multipart/form-data body for app.inject(): text fields, then files (all under their own field name). */
export type FormPart = { field: string; value: string } | { field: string; name: string; data: Buffer; type?: string };

export function multipartForm(parts: FormPart[]) {
  const boundary = `----crmtest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"\r\n\r\n`), Buffer.from(p.value), Buffer.from('\r\n'));
    } else {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"; filename="${p.name}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`),
        p.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
