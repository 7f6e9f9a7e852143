import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { startShippedTextsSignedOut, texts } from './shipped-texts.testing.ts';

let ApiError: typeof import('./api.ts').ApiError;
let describeError: typeof import('./errors.ts').describeError;

beforeAll(async () => {
  await startShippedTextsSignedOut();
  ({ ApiError } = await import('./api.ts'));
  ({ describeError } = await import('./errors.ts'));
});

describe('how a failed call is shown', () => {
  it('a busy server (429) is a warning in its own words, or the general "too many" text: trying again works', async () => {
    const el = texts('el');
    expect(describeError(new ApiError(429, { title: el['errors.exportsBusy']!, status: 429 }))).toEqual({ type: 'warning', message: el['errors.exportsBusy'] });
    await i18next.changeLanguage('el');
    expect(describeError(new ApiError(429, { title: '', status: 429 }))).toEqual({ type: 'warning', message: el['errors.tooManyRequests'] });
    await i18next.changeLanguage('en');
  });

  it('a refused input (400) and a failure (500) stay errors', () => {
    expect(describeError(new ApiError(400, { title: 'Bad', detail: 'The date is wrong', status: 400 })).type).toBe('danger');
    expect(describeError(new ApiError(500, { title: 'Broken', status: 500 })).type).toBe('danger');
  });
});
