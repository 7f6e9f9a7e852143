// A second S3-compatible server for the tests, one operators run in production: Ceph's RADOS Gateway
// (Debian's radosgw, ceph-mon and ceph-osd), on a one-machine Ceph made in DIR: a monitor, one OSD
// keeping its objects in memory (memstore) and the gateway, without cephx (loopback only), each on a
// free port. The user (keys CRMRGWKEY / CRMRGWSECRET) and BUCKET are made before it says it is ready.
// Usage: node scripts/cluster/rgw-server.mjs DIR BUCKET [PORT]
// Prints "s3 listening on http://127.0.0.1:PORT" once the bucket is there; stops the three daemons on
// SIGTERM/SIGINT or when its parent goes. Some ten seconds to start (decision 108).
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

const RGW_KEYS = { accessKeyId: 'CRMRGWKEY', secretAccessKey: 'CRMRGWSECRET' };
const runFile = promisify(execFile);
/** A Ceph tool, killed if it has not answered within two minutes (a stalled Ceph must not hold the run). */
const run = (bin, args) => runFile(bin, args, { timeout: 120_000, killSignal: 'SIGKILL' });

const [directory, bucket, askedPort = '0'] = process.argv.slice(2);
if (!directory || !bucket) {
  process.stderr.write('usage: rgw-server.mjs DIR BUCKET [PORT]\n');
  process.exit(2);
}
for (const bin of ['/usr/bin/ceph-mon', '/usr/bin/ceph-osd', '/usr/bin/radosgw']) {
  if (!fs.existsSync(bin)) {
    process.stderr.write(`${bin} is missing: apt-get install radosgw ceph-mon ceph-osd\n`);
    process.exit(3);
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const dir = path.resolve(directory);
for (const d of ['run', 'log', 'mon.a', 'osd.0']) fs.mkdirSync(path.join(dir, d), { recursive: true });
const monPort = await freePort();
const port = Number(askedPort) || (await freePort());
const conf = path.join(dir, 'ceph.conf');
fs.writeFileSync(
  conf,
  `[global]
fsid = ${randomUUID()}
mon host = v2:127.0.0.1:${monPort}
public addr = 127.0.0.1
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd pool default pg num = 8
osd pool default pgp num = 8
mon max pg per osd = 1000
mon data avail warn = 1
mon data avail crit = 0
osd objectstore = memstore
memstore device bytes = 2147483648
osd crush chooseleaf type = 0
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
log to stderr = false
debug rgw = 0
debug ms = 0
err to stderr = false
mon data = ${dir}/mon.$id
osd data = ${dir}/osd.$id
keyring = ${dir}/keyring
[client.rgw]
rgw data = ${dir}
rgw frontends = beast endpoint=127.0.0.1:${port}
rgw dns name =
`,
);

const c = ['-c', conf];
const daemons = [];
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  // The gateway first, then the OSD, then the monitor; each waited for.
  for (const d of daemons.reverse()) {
    if (d.exitCode !== null || d.signalCode !== null) continue;
    const gone = new Promise((r) => d.once('exit', r));
    d.kill('SIGTERM');
    const late = setTimeout(() => d.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(late);
  }
  process.exit(code);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void stop();
}, 1000).unref();

/** A daemon in the foreground (-f), its stderr passed on; its early end ends this server. */
function daemon(bin, args) {
  // setpriv --pdeathsig: the daemon is told to stop when this launcher dies, even by SIGKILL (no
  // Ceph daemon is left holding ports on a shared machine).
  const p = fs.existsSync('/usr/bin/setpriv')
    ? spawn('/usr/bin/setpriv', ['--pdeathsig', 'SIGKILL', bin, ...c, '-f', ...args], { stdio: ['ignore', 'ignore', 'inherit'] })
    : spawn(bin, [...c, '-f', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  p.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${path.basename(bin)} stopped (${code ?? signal}); its log is in ${dir}/log\n`);
      void stop(1);
    }
  });
  daemons.push(p);
  return p;
}

async function until(what, test, ms) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await test()) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}; the logs are in ${dir}/log`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

try {
  // The monitor: a key for mon. is needed by mkfs even without cephx.
  await run('ceph-authtool', ['--create-keyring', path.join(dir, 'keyring'), '--gen-key', '-n', 'mon.', '--cap', 'mon', 'allow *']);
  const fsid = /fsid = (\S+)/.exec(fs.readFileSync(conf, 'utf8'))[1];
  await run('monmaptool', ['--create', '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, '--fsid', fsid, path.join(dir, 'monmap')]);
  await run('ceph-mon', [...c, '--mkfs', '-i', 'a', '--monmap', path.join(dir, 'monmap')]);
  daemon('ceph-mon', ['-i', 'a']);
  // One OSD with its objects in memory.
  const osdUuid = randomUUID();
  const { stdout: id } = await run('ceph', [...c, '--connect-timeout', '30', 'osd', 'new', osdUuid]);
  await run('ceph-osd', [...c, '-i', id.trim(), '--mkfs', '--osd-uuid', osdUuid]);
  daemon('ceph-osd', ['-i', id.trim()]);
  await until('the OSD to be up', async () => (await run('ceph', [...c, 'osd', 'stat', '-f', 'json'])).stdout.includes('"num_up_osds":1'), 60_000);
  // The gateway, which makes its pools on its first start, then its user.
  daemon('radosgw', ['-n', 'client.rgw']);
  await until('the gateway to answer', async () => (await fetch(`http://127.0.0.1:${port}/`)).ok, 90_000);
  await run('radosgw-admin', [...c, '-n', 'client.rgw', '--admin-socket', '', 'user', 'create', '--uid', 'crm', '--display-name', 'CRM tests', '--access-key', RGW_KEYS.accessKeyId, '--secret', RGW_KEYS.secretAccessKey]);
  const client = new S3Client({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true, credentials: RGW_KEYS });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
} catch (e) {
  process.stderr.write(`the RADOS Gateway did not start: ${e instanceof Error ? e.message : String(e)}\n`);
  await stop(1);
}
process.stdout.write(`s3 listening on http://127.0.0.1:${port}\n`);
