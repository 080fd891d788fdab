import { describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../test-support/shared.js';

/**
 * vLLM's tokenizer routes as lm-evaluation-harness's `tokenizer_backend=remote` reads them for a
 * perplexity (loglikelihood_rolling) task: `/tokenizer_info` names BOS and EOS, whose ids it
 * finds by `/tokenize`-ing their texts; a window `[BOS, ...text]` is `/detokenize`d to a prompt
 * that reads back as the same tokens, and its echo scores the text exactly as waver scores it.
 */
describe.skipIf(tinyModelMissing)(`waver serve's tokenizer routes ${tinyModelMissing ?? ''}`, () => {
  const tiny = servedTinyModel(512);
  const root = () => tiny.server.url.replace(/\/v1$/, '');
  // biome-ignore lint/suspicious/noExplicitAny: vLLM-shaped JSON under test
  const post = async (path: string, body: unknown): Promise<any> =>
    (
      await fetch(`${root()}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json();
  const tokenize = async (prompt: string): Promise<number[]> => (await post('/tokenize', { prompt })).tokens;

  it('/tokenizer_info names BOS and EOS, and /tokenize reads their texts as their ids', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: vLLM-shaped JSON under test
    const info: any = await (await fetch(`${root()}/tokenizer_info`)).json();
    expect(info).toMatchObject({ bos_token: '<s>', eos_token: '</s>', bos_token_id: 1, eos_token_id: 2 });
    expect(info.max_model_len).toBe(512);
    expect(await tokenize(info.bos_token)).toEqual([1]);
    expect(await tokenize(info.eos_token)).toEqual([2]);
  });

  it('/detokenize of a BOS-prefixed window reads back as the same tokens (no extra leading space)', async () => {
    for (const text of ['Once upon a time', ' Once upon', 'Lily had a big red ball.']) {
      const tokens = [1, ...(await tokenize(text))];
      const prompt = (await post('/detokenize', { tokens })).prompt;
      expect(prompt).toBe(`<s>${text}`);
      expect(await tokenize(prompt)).toEqual(tokens);
      // Without BOS, as before: the text itself.
      expect((await post('/detokenize', { tokens: tokens.slice(1) })).prompt).toBe(text);
    }
  });

  it('a rolling window echoed: the text’s tokens scored after BOS, equal to its own teacher-forced score', async () => {
    const text = 'Once upon a time, there was a little girl named Lily. She liked to play outside.';
    const window = [1, ...(await tokenize(text))];
    const prompt = (await post('/detokenize', { tokens: window })).prompt;
    const echo = { model: 'tiny', echo: true, logprobs: 1, max_tokens: 1, temperature: 0 };
    const rolled = await tiny.client.completions.create({ ...echo, prompt });
    const lp = rolled.choices[0]?.logprobs;
    // lm-evaluation-harness sums token_logprobs[ctxlen:-1], ctxlen = 1 (the BOS it prefixed).
    expect(lp?.tokens?.length).toBe(window.length + 1);
    expect(lp?.tokens?.[0]).toBe('<s>');
    expect(lp?.token_logprobs?.[0]).toBeNull();
    const rolling = ((lp?.token_logprobs ?? []) as number[]).slice(1, -1).reduce((a, b) => a + b, 0);
    const own = await tiny.client.completions.create({ ...echo, prompt: text, max_tokens: 0 });
    const teacherForced = ((own.choices[0]?.logprobs?.token_logprobs ?? []) as number[]).reduce(
      (a, b) => a + b,
      0,
    );
    expect(Math.abs(rolling - teacherForced)).toBeLessThan(1e-6);
    // As token ids (tokenized_requests=True), the same.
    const byTokens = await tiny.client.completions.create({ ...echo, prompt: window });
    expect(byTokens.choices[0]?.logprobs?.token_logprobs).toEqual(lp?.token_logprobs);
  });
});
