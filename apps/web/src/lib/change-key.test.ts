import { describe, expect, it } from 'vitest';
import { digest } from './change-key.ts';

describe('a change key digest', () => {
  it('is the same for the same content and differs when a field changes', () => {
    expect(digest({ a: 1, b: 'Καλαμαριά' })).toBe(digest({ a: 1, b: 'Καλαμαριά' }));
    expect(digest({ a: 1, b: 'Καλαμαριά' })).not.toBe(digest({ a: 2, b: 'Καλαμαριά' }));
    expect(digest({ a: 1 })).toMatch(/^[0-9a-f]{16}$/);
  });

  it('reads a form with files by its fields and each file’s name, size and date', () => {
    const form = (amount: string, file: File) => {
      const f = new FormData();
      f.append('amount', amount);
      f.append('files', file);
      return f;
    };
    const receipt = new File(['12345'], 'receipt.pdf', { lastModified: 1 });
    expect(digest(form('120,00', receipt))).toBe(digest(form('120,00', new File(['12345'], 'receipt.pdf', { lastModified: 1 }))));
    expect(digest(form('120,00', receipt))).not.toBe(digest(form('121,00', receipt)));
    expect(digest(form('120,00', receipt))).not.toBe(digest(form('120,00', new File(['123456'], 'receipt.pdf', { lastModified: 1 }))));
  });
});
