import { describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../test-support/shared.js';

/**
 * `/v1/completions` prompts as OpenAI takes them (a string, strings, token arrays), the echo of a
 * prompt spelled token by token exactly, and a prompt past the context refused naming the prompt,
 * its size and how to give it room.
 */
describe.skipIf(tinyModelMissing)(`waver serve's completion prompts ${tinyModelMissing ?? ''}`, () => {
  const tiny = servedTinyModel(256);
  const root = () => tiny.server.url.replace(/\/v1$/, '');
  // biome-ignore lint/suspicious/noExplicitAny: OpenAI- and vLLM-shaped JSON under test
  const post = async (path: string, body: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${root()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const complete = (body: Record<string, unknown>) => post('/v1/completions', { model: 'tiny', ...body });

  it('a list of prompts: one choice per prompt, in order, each as the prompt alone gets it', async () => {
    const prompts = ['Once upon a time', 'The cat sat on the', 'Lily had a'];
    const alone = await Promise.all(
      prompts.map(async (prompt) => (await complete({ prompt, max_tokens: 6, logprobs: 1 })).body),
    );
    const batched = await complete({ prompt: prompts, max_tokens: 6, logprobs: 1 });
    expect(batched.status).toBe(200);
    expect(batched.body.choices.map((c: { index: number }) => c.index)).toEqual([0, 1, 2]);
    for (const [i, one] of alone.entries()) {
      expect(batched.body.choices[i].text).toBe(one.choices[0].text);
      expect(batched.body.choices[i].logprobs).toEqual(one.choices[0].logprobs);
    }
    const promptTokens = alone.reduce((sum, one) => sum + one.usage.prompt_tokens, 0);
    expect(batched.body.usage.prompt_tokens).toBe(promptTokens);
    // n per prompt, prompt-major as OpenAI orders them: index = prompt * n + choice.
    const twice = await complete({ prompt: prompts.slice(0, 2), n: 2, max_tokens: 3, temperature: 0 });
    const texts = twice.body.choices.map((c: { text: string }) => c.text);
    expect(texts[1]).toBe(texts[0]);
    expect(texts[3]).toBe(texts[2]);
    expect(alone[0].choices[0].text.startsWith(texts[0])).toBe(true);
    expect(alone[1].choices[0].text.startsWith(texts[2])).toBe(true);
    expect(twice.body.choices.map((c: { index: number }) => c.index)).toEqual([0, 1, 2, 3]);
  });

  it('token-array prompts (lm-evaluation-harness with --batch_size 4) are scored as their text', async () => {
    const texts = ['Once upon a time', 'The cat sat on the mat', 'Lily had a big red ball', 'One day'];
    const tokens = await Promise.all(
      texts.map(async (prompt) => (await post('/tokenize', { prompt })).body.tokens),
    );
    const echo = { echo: true, logprobs: 1, max_tokens: 1, temperature: 0 };
    const byText = await complete({ prompt: texts, ...echo });
    const byTokens = await complete({ prompt: tokens, ...echo });
    expect(byTokens.status).toBe(200);
    expect(byTokens.body.choices).toEqual(byText.body.choices);
    const one = await complete({ prompt: tokens[0], ...echo });
    expect(one.body.choices[0]).toEqual(byText.body.choices[0]);
    // Tokens the server would not read back from their own text are refused, not rescored as others.
    // EOS (2) inside a text spells nothing: "Once upon" reads back without it.
    const odd = await complete({ prompt: [[403, 2, 407]], ...echo });
    expect(odd.status).toBe(400);
    expect(odd.body.error.param).toBe('prompt');
    expect((await complete({ prompt: [], max_tokens: 1 })).status).toBe(400);
  });

  it('echo spells the prompt exactly: tokens that join to it, offsets where each token starts', async () => {
    for (const prompt of [' Once upon a time', 'Once upon a time', '  The cat', 'Lily, the girl.']) {
      const { body } = await complete({ prompt, echo: true, logprobs: 0, max_tokens: 0 });
      const lp = body.choices[0].logprobs;
      expect(lp.tokens.join(''), prompt).toBe(prompt);
      let at = 0;
      for (const [i, token] of lp.tokens.entries()) {
        expect(lp.text_offset[i]).toBe(at);
        at += token.length;
      }
    }
    const { body } = await complete({ prompt: ' Once upon', echo: true, logprobs: 0, max_tokens: 0 });
    expect(body.choices[0].logprobs.text_offset).toEqual([0, 1, 5]);
  });

  it('a prompt past the context: 400 context_length_exceeded naming the prompt, its tokens and the serve flag', async () => {
    const long = 'Once upon a time '.repeat(100);
    const { tokens } = (await post('/tokenize', { prompt: long })).body;
    const echoed = await complete({ prompt: long, echo: true, logprobs: 0, max_tokens: 0 });
    expect(echoed.status).toBe(400);
    expect(echoed.body.error).toMatchObject({ param: 'prompt', code: 'context_length_exceeded' });
    // The prompt's own tokens and BOS, not "(1 tokens)".
    expect(echoed.body.error.message).toContain(`(${tokens.length + 1} tokens`);
    const room = 2 ** Math.ceil(Math.log2(tokens.length + 1));
    expect(echoed.body.error.message).toContain(`--context-size ${room}`);
    expect(echoed.body.error.message).toContain(`?ctx=${room}`);
    const generated = await complete({ prompt: long, max_tokens: 4 });
    expect(generated.body.error).toMatchObject({ param: 'prompt', code: 'context_length_exceeded' });
    const chat = await post('/v1/chat/completions', {
      model: 'tiny',
      messages: [{ role: 'user', content: long }],
    });
    expect(chat.status).toBe(400);
    expect(chat.body.error).toMatchObject({ param: 'messages', code: 'context_length_exceeded' });
    expect(chat.body.error.message).toContain('--context-size');
    const response = await post('/v1/responses', { model: 'tiny', input: long });
    expect(response.body.error).toMatchObject({ param: 'input', code: 'context_length_exceeded' });
  });
});
