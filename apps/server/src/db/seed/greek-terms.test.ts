import { describe, expect, it } from 'vitest';
import { readLocaleFiles } from './index.ts';

/**
 * The Greek texts name each thing of the trade with one word, the one a Greek agency uses and the
 * screens' titles already use, and ask before deleting the way every other dialog asks.
 */
describe('Greek texts', () => {
  const cultures = readLocaleFiles();
  const en = cultures.find((c) => c.culture === 'en')!.texts;
  const el = cultures.find((c) => c.culture === 'el')!.texts;
  const entries = Object.entries(el);
  const saying = (re: RegExp) => entries.filter(([, text]) => re.test(text)).map(([key, text]) => `${key}: ${text}`);

  it('call a payments statement "καρτέλα λογαριασμού", as its screen does', () => {
    expect(el['title.statement']).toBe('Καρτέλα λογαριασμού');
    expect(saying(/κατάσταση λογαριασμού/i)).toEqual([]);
  });

  it('call the rent "μίσθωμα" and a paid transaction "εξοφλημένο"', () => {
    expect(saying(/ενοίκι(ο|ου)/i)).toEqual([]);
    expect(saying(/πληρωμέν/i)).toEqual([]);
  });

  it('call a lead "ενδιαφέρον" and a deal "συμφωνία"', () => {
    const lead = entries.filter(([key]) => /\bleads?\b/i.test(en[key] ?? '') && !/enquir/i.test(en[key] ?? ''));
    expect(lead.filter(([, text]) => /αίτημ/i.test(text)).map(([key]) => key)).toEqual([]);
    const deal = entries.filter(([key]) => /\bdeals?\b/i.test(en[key] ?? ''));
    expect(deal.filter(([, text]) => /συναλλαγ/i.test(text)).map(([key]) => key)).toEqual([]);
  });

  it('say the floor area "εμβαδόν" everywhere', () => {
    expect(saying(/επιφάνει/i)).toEqual([]);
  });

  it('ask "Να διαγραφεί …;" before deleting', () => {
    const asks = entries.filter(([key]) => /^Delete .*\?$/.test(en[key] ?? ''));
    expect(asks.length).toBeGreaterThan(10);
    expect(asks.filter(([, text]) => !/^Να διαγραφ\S+ .*;$/.test(text)).map(([key, text]) => `${key}: ${text}`)).toEqual([]);
  });
});
