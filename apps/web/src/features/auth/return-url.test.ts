import { describe, expect, it } from 'vitest';
import { isApiPath, returnPath } from './return-url.ts';

const origin = 'https://crm.example.gr';

describe('returnPath', () => {
  it('takes a path of this site, with its query and fragment', () => {
    expect(returnPath('/api/files/abc.pdf/%CE%A3.pdf?size=original', origin)).toBe('/api/files/abc.pdf/%CE%A3.pdf?size=original');
    expect(returnPath('/CRM/leads/12#files', origin)).toBe('/CRM/leads/12#files');
    expect(returnPath('/', origin)).toBe('/');
  });

  it('ignores anything that could lead to another site', () => {
    for (const v of [
      '//evil.example',
      '//evil.example/api/files/x',
      'https://evil.example',
      'HTTPS://evil.example/',
      'javascript:alert(1)',
      'evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      ' //evil.example',
      '',
      null,
      undefined,
    ]) {
      expect(returnPath(v, origin), String(v)).toBeNull();
    }
  });
  it('an encoded or look-alike way to another site stays a path of this site, or is ignored', () => {
    for (const v of ['/%2F%2Fevil.example', '/%5Cevil.example', '/.%2E//evil.example', '/.//evil.example', '/api/..//evil.example', '/\uFF0F/evil.example', '/\u2215evil.example', '/\u3000/evil.example', '/@evil.example', '/javascript:alert(1)', '/\r/evil.example']) {
      const path = returnPath(v, origin);
      if (path !== null) expect(new URL(path, origin).origin, v).toBe(origin);
    }
  });
});

describe('isApiPath', () => {
  it('tells the API addresses (opened by the browser) from the screens (opened by the router)', () => {
    expect(isApiPath('/api/files/abc.pdf')).toBe(true);
    expect(isApiPath('/API/files/abc.pdf')).toBe(true);
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/CRM/api')).toBe(false);
    expect(isApiPath('/apis')).toBe(false);
    expect(isApiPath('/CRM')).toBe(false);
  });
});
