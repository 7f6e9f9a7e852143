import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../config.ts';
import { SAFE_NAME, checkStoredName, s3Where, type BackupArea, type FileStorage } from './stored-names.ts';

/** The SDK's own "no such object" answers (GetObject says NoSuchKey; HEAD has no body, so NotFound or a bare 404). */
function isMissing(e: unknown): boolean {
  const err = e as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NoSuchKey' || err?.name === 'NotFound' || err?.Code === 'NoSuchKey' || err?.$metadata?.httpStatusCode === 404;
}

/** The S3 client the settings describe (also used by the copy command and the tests). */
export function s3ClientOf(s: S3Settings): S3Client {
  const config: S3ClientConfig = {
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    // Stores that do not read the SDK's newer checksum trailers (many S3-compatible ones) are sent
    // checksums only where the API requires them (S3_CHECKSUMS=when_required).
    requestChecksumCalculation: s.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
    responseChecksumValidation: s.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
  };
  // A store that stops answering fails the request instead of holding its caller for good (a sync
  // holding its mailbox, decision 104): 10 s to connect, 60 s without a byte on an open request.
  config.requestHandler = { connectionTimeout: 10_000, requestTimeout: 60_000 };
  if (s.endpoint) config.endpoint = s.endpoint;
  // Without keys in the settings, the SDK's own chain finds them (AWS_* variables, a role, a profile).
  if (s.accessKeyId && s.secretAccessKey) config.credentials = { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey };
  return new S3Client(config);
}

/**
 * Stored files in an S3-compatible bucket through the official AWS SDK (decision 062): one object
 * per stored name under S3_PREFIX. Large files go up in parts (lib-storage's Upload) and come down
 * as a stream; nothing is held whole in memory. Every instance of the app reads and writes the same
 * bucket, so any of them serves any file.
 */
export class S3Storage implements FileStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;

  constructor(private readonly settings: S3Settings) {
    this.client = s3ClientOf(settings);
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
  }

  get where() {
    return s3Where(this.settings);
  }

  private key(name: string) {
    return this.prefix + checkStoredName(name);
  }

  /** Fails with the store's own reason when the bucket cannot be reached (start-up says so). */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (e) {
      const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      const why = status === 404 ? 'there is no such bucket' : status === 403 ? 'access is denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)' : (e as Error).message || (e as Error).name;
      throw new Error(`The file store ${this.where}${this.settings.endpoint ? ` at ${this.settings.endpoint}` : ''} cannot be used: ${why}.`, { cause: e });
    }
  }

  async put(name: string, source: Readable | { path: string }): Promise<void> {
    const fromPath = 'path' in source && typeof source.path === 'string' && !('pipe' in source);
    const body = fromPath ? fs.createReadStream(source.path) : (source as Readable);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.key(name), Body: body, ...(fromPath ? { ContentLength: (await fs.promises.stat(source.path)).size } : {}) },
      // 8 MB parts, two at a time: a 2 GB upload holds at most some 16 MB in memory.
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
    // Moved in, as local disk does: the checked upload's scratch copy goes.
    if (fromPath) await fs.promises.rm(source.path, { force: true });
  }

  async putCopy(name: string, source: string): Promise<void> {
    if (await this.stat(name)) return;
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.key(name), Body: fs.createReadStream(source), ContentLength: (await fs.promises.stat(source)).size },
    });
    await upload.done();
  }

  async get(name: string, signal?: AbortSignal): Promise<Readable | undefined> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name) }), { abortSignal: signal });
      const body = r.Body as Readable;
      // Given up while the bytes come: the stream ends with the reason (the SDK's signal covers the request).
      if (signal) {
        const stop = () => body.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        if (signal.aborted) stop();
        else {
          signal.addEventListener('abort', stop, { once: true });
          body.once('close', () => signal.removeEventListener('abort', stop));
        }
      }
      return body;
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  async stat(name: string): Promise<{ size: number } | undefined> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
      return { size: Number(r.ContentLength ?? 0) };
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  async delete(name: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
  }

  async *list(): AsyncIterable<{ name: string; size: number }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix || undefined, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        const name = (o.Key ?? '').slice(this.prefix.length);
        // Only our own names: anything else in a shared bucket is none of ours.
        if (SAFE_NAME.test(name) && !name.includes('/')) yield { name, size: Number(o.Size ?? 0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  backups(): BackupArea {
    return new S3Backups(this.client, this.bucket, `${this.prefix}backups/`);
  }

  async presign(name: string, headers: { contentType: string; contentDisposition: string; cacheControl: string }): Promise<string | undefined> {
    if (!this.settings.presignSeconds) return undefined;
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.key(name),
      ResponseContentType: headers.contentType,
      ResponseContentDisposition: headers.contentDisposition,
      ResponseCacheControl: headers.cacheControl,
    });
    return getSignedUrl(this.client, command, { expiresIn: this.settings.presignSeconds });
  }
}

/**
 * Backups in the store (decision 093), under S3_PREFIX + backups/: written in 8 MB parts as the
 * archive is made (the object appears whole, or not at all, when the upload completes; a failed
 * upload's parts are aborted), listed, streamed back and pruned by any instance.
 */
class S3Backups implements BackupArea {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  get where() {
    return `s3://${this.bucket}/${this.prefix}`;
  }

  private key(name: string) {
    return this.prefix + checkStoredName(name);
  }

  async list(): Promise<{ name: string; size: number; at: Date }[]> {
    const out: { name: string; size: number; at: Date }[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        const name = (o.Key ?? '').slice(this.prefix.length);
        if (SAFE_NAME.test(name) && !name.includes('/')) out.push({ name, size: Number(o.Size ?? 0), at: o.LastModified ?? new Date(0) });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async has(name: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
      return true;
    } catch (e) {
      if (isMissing(e)) return false;
      throw e;
    }
  }

  async put(name: string, body: Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.key(name), Body: body, ContentType: 'application/gzip' },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async get(name: string): Promise<{ body: Readable; size: number } | undefined> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
      return { body: r.Body as Readable, size: Number(r.ContentLength ?? 0) };
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  async delete(name: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(name) }));
  }
}
