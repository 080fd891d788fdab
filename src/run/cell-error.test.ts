import { describe, expect, it } from 'vitest';
import { ProviderError } from '../models/errors.js';
import { toCellError } from './cell-error.js';

describe('toCellError', () => {
  it('keeps kind, message and status of a ProviderError', () => {
    expect(toCellError(new ProviderError('server', 'bad gateway', { status: 502 }))).toEqual({
      kind: 'server',
      message: 'bad gateway',
      status: 502,
    });
  });
  it("turns anything else into 'internal' with its name", () => {
    expect(toCellError(new TypeError('x is undefined'))).toEqual({
      kind: 'internal',
      message: 'TypeError: x is undefined',
    });
    expect(toCellError('a string')).toEqual({ kind: 'internal', message: 'non-error thrown: a string' });
  });
});
