import { describe, expect, it } from 'vitest';
import { assumedMatches, setAssumedWidth } from './first-paint.ts';

describe('the width a drawn screen is drawn for', () => {
  it("answers the app's width queries for a phone and for a desktop, in em and px", () => {
    setAssumedWidth(412);
    expect(assumedMatches('(max-width: 35.99em)')).toBe(true);
    expect(assumedMatches('(min-width: 48em)')).toBe(false);
    expect(assumedMatches('(min-width: 75em)')).toBe(false);
    expect(assumedMatches('(max-width: 30em)')).toBe(true);
    setAssumedWidth(1280);
    expect(assumedMatches('(max-width: 35.99em)')).toBe(false);
    expect(assumedMatches('(min-width: 48em)')).toBe(true);
    expect(assumedMatches('(min-width: 75em)')).toBe(true);
    expect(assumedMatches('(min-width: 1000px) and (max-width: 1300px)')).toBe(true);
    expect(assumedMatches('(min-width: 1000px) and (max-width: 1200px)')).toBe(false);
  });

  it('answers no to what it cannot know (motion, hover, orientation)', () => {
    setAssumedWidth(1280);
    expect(assumedMatches('(prefers-reduced-motion: reduce)')).toBe(false);
    expect(assumedMatches('(hover: hover)')).toBe(false);
    expect(assumedMatches('(min-width: 48em) and (orientation: portrait)')).toBe(false);
  });
});
