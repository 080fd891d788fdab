import { describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../test-support/shared.js';

/**
 * A request names the model it wants: `waver serve` answers only for the one it serves, and any
 * other name is OpenAI's 404 `model_not_found` on every route, naming the served model, so that a
 * typo in a client's config is not silently answered by another model.
 */
describe.skipIf(tinyModelMissing)(`waver serve's model names ${tinyModelMissing ?? ''}`, () => {
  const tiny = servedTinyModel(256);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${tiny.server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: OpenAI-shaped JSON under test
    return { status: res.status, body: (await res.json()) as any };
  };
  const bodies: [string, Record<string, unknown>][] = [
    ['/chat/completions', { messages: [{ role: 'user', content: 'Hi' }], max_tokens: 2 }],
    ['/completions', { prompt: 'Once', max_tokens: 2 }],
    ['/embeddings', { input: 'Once' }],
    ['/responses', { input: 'Once', max_output_tokens: 2 }],
  ];

  it.each(bodies)(
    '%s: an unknown model is a 404 model_not_found naming the served one',
    async (path, body) => {
      const wrong = await post(path, { ...body, model: 'gpt-nope' });
      expect(wrong.status).toBe(404);
      expect(wrong.body.error).toMatchObject({
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      });
      expect(wrong.body.error.message).toContain("'gpt-nope'");
      expect(wrong.body.error.message).toContain("'tiny'");
      // The served name, and a request that names none (as a bare curl does), are answered.
      expect((await post(path, { ...body, model: 'tiny' })).status).toBe(200);
      expect((await post(path, body)).status).toBe(200);
    },
  );

  it('the SDK sees a NotFoundError, and a batch line naming another model fails alone', async () => {
    await expect(
      tiny.client.chat.completions.create({ model: 'tiny2', messages: [{ role: 'user', content: 'Hi' }] }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    const line = (id: string, model: string) =>
      JSON.stringify({
        custom_id: id,
        method: 'POST',
        url: '/v1/completions',
        body: { model, prompt: 'Once', max_tokens: 2 },
      });
    const file = await tiny.client.files.create({
      file: new File([`${line('ok', 'tiny')}\n${line('typo', 'tinny')}\n`], 'in.jsonl'),
      purpose: 'batch',
    });
    let batch = await tiny.client.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/completions',
      completion_window: '24h',
    });
    while (!['completed', 'failed', 'cancelled'].includes(batch.status)) {
      await new Promise((r) => setTimeout(r, 50));
      batch = await tiny.client.batches.retrieve(batch.id);
    }
    expect(batch.request_counts).toMatchObject({ completed: 1, failed: 1 });
    const errors = await (await tiny.client.files.content(batch.error_file_id as string)).text();
    expect(JSON.parse(errors).response).toMatchObject({
      status_code: 404,
      body: { error: { code: 'model_not_found' } },
    });
  });
});
