import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';

// As in the server's drawing worker (ssr/first-paint-worker.mjs): the app's modules see the drawing's stand-in.
(globalThis as unknown as { __firstPaint: object }).__firstPaint = {};
const { setAssumedWidth, useMedia } = await import('./first-paint.ts');

function drawn(query: string, fallback: boolean): string {
  const Probe = () => createElement('span', null, String(useMedia(query, fallback)));
  return renderToString(createElement(Probe));
}

describe("a media query's answer on the server's drawing", () => {
  it('is the one for the width the screen is drawn for, not the fallback', () => {
    setAssumedWidth(412);
    expect(drawn('(min-width: 48em)', true)).toBe('<span>false</span>');
    expect(drawn('(max-width: 35.99em)', false)).toBe('<span>true</span>');
    setAssumedWidth(1280);
    expect(drawn('(min-width: 48em)', false)).toBe('<span>true</span>');
    expect(drawn('(min-width: 75em)', false)).toBe('<span>true</span>');
  });
});
