import { describe, expect, it } from 'vitest';
import { excerptParts, findWords } from './text-match.ts';

const marked = (text: string, search: string) =>
  excerptParts(text, search)
    .map((p) => (p.found ? `[${p.text}]` : p.text))
    .join('');

describe('words of a search in a text', () => {
  it('are found whatever their accents and case, and marked in the text as typed', () => {
    expect(marked('Πολύ σκοτεινό, βλέπει σε φωταγωγό.', 'ΣΚΟΤΕΙΝΟ')).toBe('Πολύ [σκοτεινό], βλέπει σε φωταγωγό.');
    expect(marked('Too dark, it faces the light well', 'DARK light')).toBe('Too [dark], it faces the [light] well');
    // The final sigma is a sigma; a Russian ё is an е, as the server's search has it.
    expect(marked('Ήταν πολύ μικρός', 'μικροσ')).toBe('Ήταν πολύ [μικρός]');
    expect(marked('Всё хорошо', 'все')).toBe('[Всё] хорошо');
  });

  it('cut a long text to start a little before the first word found', () => {
    const text = 'Liked the garden and the kitchen very much; wants to see it again with his wife on Sunday';
    expect(marked(text, 'wife')).toBe('…with his [wife] on Sunday');
    expect(marked('Πολύ σκοτεινό, βλέπει σε φωταγωγό.', 'φωταγωγο')).toBe('…βλέπει σε [φωταγωγό].');
    // A find near the start keeps the whole text.
    expect(marked(text, 'garden')).toBe('Liked the [garden] and the kitchen very much; wants to see it again with his wife on Sunday');
  });

  it('merge overlapping finds, and find nothing for blanks or words not there', () => {
    expect(findWords('abcabc', 'abc bca')).toEqual([[0, 6]]);
    expect(findWords('Too dark', '   ')).toEqual([]);
    expect(marked('Too dark', 'view')).toBe('Too dark');
  });
});
