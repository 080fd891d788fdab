import { describe, expect, it } from 'vitest';
import { fromChatBody } from './openai.js';
import { lineOutcome, outcomeOf } from './openai-batch.js';

/** Lines of OpenAI batch output and error files, as the Batch API documents them. */
describe('openai: batch output lines', () => {
  const read = (value: unknown) => outcomeOf(value, 'openai:m@https://api.openai.com/v1', fromChatBody);
  const body = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Paris' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
  };

  it('a 200 response is the answer, read as an interactive body is', () => {
    expect(
      read({
        id: 'batch_req_1',
        custom_id: 'r0',
        response: { status_code: 200, request_id: 'x', body },
        error: null,
      }),
    ).toEqual({
      customId: 'r0',
      ok: true,
      result: {
        text: 'Paris',
        finishReason: 'stop',
        usage: { inputTokens: 9, outputTokens: 1 },
        responseModel: 'gpt-4o-mini-2024-07-18',
      },
    });
  });

  it('another status is an error of the kind an interactive call gets, with the message', () => {
    const o = read({
      custom_id: 'r1',
      response: {
        status_code: 400,
        body: { error: { message: "Invalid 'max_tokens'", type: 'invalid_request_error' } },
      },
      error: null,
    });
    expect(o).toMatchObject({ customId: 'r1', ok: false, error: { kind: 'client', status: 400 } });
    expect(!o.ok && 'error' in o && o.error.message).toMatch(/HTTP 400 Invalid 'max_tokens'/);
    expect(read({ custom_id: 'r2', response: { status_code: 429, body: {} }, error: null })).toMatchObject({
      error: { kind: 'rate_limit' },
    });
    expect(read({ custom_id: 'r3', response: { status_code: 500, body: {} }, error: null })).toMatchObject({
      error: { kind: 'server' },
    });
  });

  it('expired and cancelled requests are not answered: to be asked again', () => {
    expect(
      read({
        custom_id: 'r4',
        response: null,
        error: {
          code: 'batch_expired',
          message: 'This request could not be executed before the completion window expired.',
        },
      }),
    ).toEqual({
      customId: 'r4',
      ok: false,
      missing: 'This request could not be executed before the completion window expired.',
    });
    expect(
      read({ custom_id: 'r5', response: null, error: { code: 'batch_cancelled', message: 'cancelled' } }),
    ).toMatchObject({
      missing: 'cancelled',
    });
  });

  it('another error, or a body that is not a chat completion, is a failed request', () => {
    expect(
      read({ custom_id: 'r6', response: null, error: { code: 'server_error', message: 'boom' } }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'client' },
    });
    expect(
      read({ custom_id: 'r7', response: { status_code: 200, body: { choices: {} } }, error: null }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'bad_response' },
    });
    // A 200 with no answer in it keeps its kind: it is not asked again.
    expect(
      read({ custom_id: 'r8', response: { status_code: 200, body: { choices: [] } }, error: null }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'no_answer' },
    });
    const quota = { message: 'You exceeded your current quota', code: 'insufficient_quota' };
    expect(
      read({ custom_id: 'r9', response: { status_code: 429, body: { error: quota } }, error: null }),
    ).toMatchObject({ ok: false, error: { kind: 'quota', status: 429 } });
    expect(() => read({ response: null })).toThrow(/custom_id/);
  });
});

describe('openai: broken batch output lines', () => {
  const where = 'openai:m@https://api.openai.com/v1';
  it('a line that is not JSON is the error of the cell its custom_id names, or of none', () => {
    const cut = lineOutcome(
      { ok: false, text: '{"id":"x","custom_id":"r7","respo', error: 'bad' },
      where,
      fromChatBody,
    );
    expect(cut).toMatchObject({ customId: 'r7', ok: false });
    expect(cut && 'error' in cut && cut.error.kind).toBe('bad_response');
    expect(lineOutcome({ ok: false, text: 'garbage', error: 'bad' }, where, fromChatBody)).toBeUndefined();
    expect(lineOutcome({ ok: true, value: { custom_id: 3 } }, where, fromChatBody)).toBeUndefined();
  });
});
