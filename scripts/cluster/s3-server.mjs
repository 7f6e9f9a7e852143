// An S3-compatible server for the tests (the store's protocol, signatures checked; objects on disk):
// s3rver, from the npm registry. Usage: node scripts/cluster/s3-server.mjs DIR BUCKET [PORT]
// Run with node --openssl-legacy-provider: s3rver's list continuation tokens use DES, which OpenSSL 3
// keeps in its legacy provider. Prints "s3 listening on http://127.0.0.1:PORT" once it answers, and stops on SIGTERM/SIGINT or
// when its parent goes. Keys: S3RVER / S3RVER (s3rver's own account).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import S3rver from '@20minutes/s3rver';

// s3rver canonicalizes a bucket's own address without the slash the request had ("/bucket/" signed
// by the AWS SDK as "/bucket/", checked as "/bucket"), so ListObjectsV2 and HeadBucket fail their
// signature check. The canonical URI is the request's path as sent: that one case is set right here;
// every signature is still checked.
// It also encodes the query's values with encodeURIComponent, which leaves ! ' ( ) * as they are,
// where SigV4 (and the AWS SDK, and S3) percent-encode them (RFC 3986): a presigned address whose
// response-content-disposition says filename*=UTF-8''… was refused. They are encoded here as S3 does.
const v4 = createRequire(import.meta.url)('@20minutes/s3rver/lib/signature/v4.js');
const current = new AsyncLocalStorage();
const toSign = v4.getStringToSign;
const rfc3986 = (q) => q.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
v4.getStringToSign = (canonical, request) => {
  const path = current.getStore()?.path;
  const uri = path && path.endsWith('/') && !canonical.uri.endsWith('/') && path === `${canonical.uri}/` ? path : canonical.uri;
  return toSign({ ...canonical, uri, querystring: rfc3986(canonical.querystring ?? '') }, request);
};

const [directory, bucket, port = '0'] = process.argv.slice(2);
if (!directory || !bucket) {
  process.stderr.write('usage: s3-server.mjs DIR BUCKET [PORT]\n');
  process.exit(2);
}
const server = new S3rver({ address: '127.0.0.1', port: Number(port), directory, silent: !process.env.S3_SERVER_LOG, configureBuckets: [{ name: bucket }] });
server.middleware.unshift((ctx, next) => current.run(ctx, next));
const address = await server.run();
process.stdout.write(`s3 listening on http://127.0.0.1:${address.port}\n`);
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop();
}, 1000).unref();
