import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { lockDataDir } from '../src/lib/data-dir-lock.ts';
import { tileHosts } from '../src/app.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, adminEmail: 'admin@example.com', timeZone: 'Europe/Athens', demoData: true });
    expect(c.dataDir).toBe(path.resolve('./data'));
  });

  it('lists every bad value at once', () => {
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', TIME_ZONE: 'Mars/Olympus', ADMIN_PASSWORD: 'short' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const text = (e as ConfigError).message;
      for (const name of ['PORT', 'DATABASE_URL', 'TIME_ZONE', 'ADMIN_PASSWORD']) expect(text).toContain(name);
    }
  });
});

describe('map tiles setting', () => {
  it('defaults to OpenStreetMap, credited, and lets its host into the CSP img-src', () => {
    const c = loadConfig({});
    expect(c.map).toEqual({
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap contributors',
      attributionUrl: 'https://www.openstreetmap.org/copyright',
    });
    expect(tileHosts(c.map.tileUrl)).toEqual(['https://tile.openstreetmap.org']);
    expect(tileHosts('https://{s}.tiles.example.gr/osm/{z}/{x}/{y}{r}.png')).toEqual(['https://*.tiles.example.gr']);
    expect(tileHosts('http://127.0.0.1:8080/{z}/{x}/{y}.png')).toEqual(['http://127.0.0.1:8080']);
  });

  it('refuses a tile address that is not a tile template', () => {
    for (const bad of ['tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://tile.openstreetmap.org/tiles.png', "javascript:alert(1)//{z}{x}{y}"]) {
      expect(() => loadConfig({ MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    }
    expect(() => loadConfig({ MAP_TILE_ATTRIBUTION_URL: 'javascript:alert(1)' })).toThrow(/MAP_TILE_ATTRIBUTION_URL/);
  });
});

describe('data directory lock', () => {
  it('refuses a second holder and takes over a lock left by a dead or unrelated process', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-lock-'));
    const release = lockDataDir(dir);
    // A live CRM server (its command line names the server's main module), that is not us.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', 'apps/server/src/main.ts'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => other.once('spawn', resolve));
      fs.writeFileSync(path.join(dir, 'crm.lock'), `${other.pid}\n`);
      expect(() => lockDataDir(dir)).toThrow(/Another CRM process \(pid \d+\) is already running/);
    } finally {
      other.kill();
    }
    fs.writeFileSync(path.join(dir, 'crm.lock'), `${process.ppid}\n`); // a live process that is no CRM
    lockDataDir(dir)();
    fs.writeFileSync(path.join(dir, 'crm.lock'), '999999\n'); // no such process
    const again = lockDataDir(dir);
    again();
    release();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
