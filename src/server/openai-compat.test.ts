import { describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../test-support/shared.js';

/**
 * What the tools people already run ask of an OpenAI-compatible server, driven by the official
 * openai SDK against `waver serve` over the tiny real model: `n` choices, prompt log-probs by
 * `echo` (lm-evaluation-harness's log-likelihood call), vLLM's tokenizer routes, errors naming
 * the parameter.
 */
describe.skipIf(tinyModelMissing)(`waver serve for OpenAI clients ${tinyModelMissing ?? ''}`, () => {
  const tiny = servedTinyModel(512);

  it('n choices: the same answer at temperature 0, seeded repeats when sampling', async () => {
    const messages = [{ role: 'user' as const, content: 'Once upon a time' }];
    const greedy = await tiny.client.chat.completions.create({
      model: 'tiny',
      messages,
      n: 3,
      max_tokens: 12,
    });
    expect(greedy.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(new Set(greedy.choices.map((c) => c.message.content)).size).toBe(1);
    const single = await tiny.client.chat.completions.create({ model: 'tiny', messages, max_tokens: 12 });
    expect(greedy.choices[0]?.message.content).toBe(single.choices[0]?.message.content);
    // The prompt counted once, each choice's tokens added up.
    expect(greedy.usage?.prompt_tokens).toBe(single.usage?.prompt_tokens);
    expect(greedy.usage?.completion_tokens).toBe(3 * (single.usage?.completion_tokens ?? 0));
    const sampled = await tiny.client.chat.completions.create({
      model: 'tiny',
      messages,
      n: 4,
      max_tokens: 16,
      temperature: 1.5,
      seed: 7,
    });
    expect(new Set(sampled.choices.map((c) => c.message.content)).size).toBeGreaterThan(1);
    const again = await tiny.client.chat.completions.create({
      model: 'tiny',
      messages,
      n: 4,
      max_tokens: 16,
      temperature: 1.5,
      seed: 7,
    });
    expect(again.choices.map((c) => c.message.content)).toEqual(
      sampled.choices.map((c) => c.message.content),
    );
    const completions = await tiny.client.completions.create({
      model: 'tiny',
      prompt: 'The cat',
      n: 2,
      max_tokens: 4,
    });
    expect(completions.choices.length).toBe(2);
    await expect(
      tiny.client.chat.completions.create({ model: 'tiny', messages, n: 2, stream: true }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'n' } });
  });

  it('echo + logprobs: the prompt tokens teacher-forced, as the continuation’s own generated log-probs', async () => {
    const prompt = 'Once upon a time, there was a little girl';
    const echoed = await tiny.client.completions.create({
      model: 'tiny',
      prompt,
      echo: true,
      logprobs: 1,
      max_tokens: 0,
    });
    const choice = echoed.choices[0];
    expect(choice?.text).toBe(prompt);
    expect(choice?.finish_reason).toBe('length');
    const lp = choice?.logprobs;
    // SentencePiece's dummy prefix: the first token may spell a leading space.
    expect(lp?.tokens?.join('').trimStart()).toBe(prompt);
    expect(lp?.tokens?.length).toBe(echoed.usage?.prompt_tokens);
    expect(lp?.token_logprobs?.every((x) => typeof x === 'number' && x <= 0)).toBe(true);
    expect(lp?.text_offset?.[0]).toBe(0);
    // top-1 alternative at each position; a greedy continuation's token is its own top.
    expect(lp?.top_logprobs?.every((top) => Object.keys(top).length === 1)).toBe(true);

    // The prompt's tail scored by echo equals what generation gave those tokens: generate from a
    // prefix, then echo prefix + generated text.
    const prefix = 'Once upon a time';
    const generated = await tiny.client.completions.create({
      model: 'tiny',
      prompt: prefix,
      max_tokens: 6,
      logprobs: 0,
    });
    const gen = generated.choices[0]?.logprobs;
    const whole = await tiny.client.completions.create({
      model: 'tiny',
      prompt: prefix + (generated.choices[0]?.text ?? ''),
      echo: true,
      logprobs: 0,
      max_tokens: 0,
    });
    const tail = whole.choices[0]?.logprobs?.token_logprobs?.slice(-(gen?.token_logprobs?.length ?? 0));
    expect(tail?.length).toBe(6);
    for (const [i, x] of (tail ?? []).entries()) expect(x).toBeCloseTo(gen?.token_logprobs?.[i] as number, 4);

    // echo with max_tokens 1 (lm-evaluation-harness): the prompt's tokens, then one generated.
    const one = await tiny.client.completions.create({
      model: 'tiny',
      prompt,
      echo: true,
      logprobs: 1,
      max_tokens: 1,
    });
    expect(one.choices[0]?.logprobs?.tokens?.length).toBe((lp?.tokens?.length ?? 0) + 1);
    expect(one.choices[0]?.text.startsWith(prompt)).toBe(true);
  });

  it('refuses what it cannot do with a 400 naming the parameter', async () => {
    await expect(
      tiny.client.completions.create({ model: 'tiny', prompt: 'x', max_tokens: 0 }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'max_tokens' } });
    await expect(
      tiny.client.completions.create({ model: 'tiny', prompt: 'x', echo: true, stream: true }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'echo' } });
    await expect(
      tiny.client.completions.create({ model: 'tiny', prompt: 'x', suffix: 'y' }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'suffix' } });
  });

  it('vLLM tokenizer routes: /tokenize and /detokenize agree with the echoed tokens', async () => {
    const root = tiny.server.url.replace(/\/v1$/, '');
    // biome-ignore lint/suspicious/noExplicitAny: vLLM-shaped JSON under test
    const post = async (path: string, body: unknown): Promise<any> =>
      (
        await fetch(`${root}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json();
    const prompt = 'Lily had a big red ball';
    const { tokens, count } = await post('/tokenize', { prompt, add_special_tokens: false });
    expect(count).toBe(tokens.length);
    expect((await post('/detokenize', { tokens })).prompt.trim()).toBe(prompt);
    const echoed = await tiny.client.completions.create({
      model: 'tiny',
      prompt,
      echo: true,
      logprobs: 0,
      max_tokens: 0,
    });
    expect(echoed.choices[0]?.logprobs?.tokens?.length).toBe(tokens.length);
    expect((await fetch(`${root}/tokenizer_info`)).status).toBe(200);
  });

  it('response_format json_object and json_schema: the answer is JSON, of the schema', async () => {
    const messages = [{ role: 'user' as const, content: 'Is the cat happy? Answer in JSON.' }];
    const object = await tiny.client.chat.completions.create({
      model: 'tiny',
      messages,
      response_format: { type: 'json_object' },
      max_tokens: 200,
    });
    const text = object.choices[0]?.message.content ?? '';
    if (object.choices[0]?.finish_reason === 'stop') expect(() => JSON.parse(text)).not.toThrow();
    expect(text.trimStart().startsWith('{')).toBe(true);
    const schema = {
      type: 'object',
      properties: { answer: { enum: ['yes', 'no'] }, sure: { type: 'boolean' } },
      required: ['answer', 'sure'],
      additionalProperties: false,
    };
    const typed = await tiny.client.chat.completions.create({
      model: 'tiny',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'verdict', schema, strict: true } },
      max_tokens: 60,
    });
    expect(typed.choices[0]?.finish_reason).toBe('stop');
    const value = JSON.parse(typed.choices[0]?.message.content ?? '');
    expect(['yes', 'no']).toContain(value.answer);
    expect(typeof value.sure).toBe('boolean');
    await expect(
      tiny.client.chat.completions.create({
        model: 'tiny',
        messages,
        // @ts-expect-error: a type OpenAI does not have
        response_format: { type: 'yaml' },
      }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'response_format.type' } });
    await expect(
      tiny.client.chat.completions.create({
        model: 'tiny',
        messages,
        response_format: { type: 'json_schema', json_schema: { name: 'bad', schema: { enum: 3 } } },
      }),
    ).rejects.toMatchObject({
      status: 400,
      error: { param: 'response_format.json_schema.schema', code: 'invalid_json_schema' },
    });
  });

  const weather = {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: {
        type: 'object',
        properties: { unit: { enum: ['celsius', 'fahrenheit'] } },
        required: ['unit'],
        additionalProperties: false,
      },
    },
  };

  it('tools: a grammar-held call in OpenAI’s tool-call shape, whole and streamed', async () => {
    const messages = [{ role: 'user' as const, content: 'What is the weather?' }];
    const called = await tiny.client.chat.completions.create({
      model: 'tiny',
      messages,
      tools: [weather],
      tool_choice: 'required',
      max_tokens: 60,
    });
    const choice = called.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const toolCall = choice?.message.tool_calls?.[0];
    expect(toolCall?.type).toBe('function');
    expect(toolCall?.id).toMatch(/^call_/);
    if (toolCall?.type !== 'function') throw new Error('not a function call');
    expect(toolCall.function.name).toBe('get_weather');
    expect(['celsius', 'fahrenheit']).toContain(JSON.parse(toolCall.function.arguments).unit);

    // The SDK's stream helper gathers the streamed call into the same shape.
    const stream = tiny.client.chat.completions.stream({
      model: 'tiny',
      messages,
      tools: [weather],
      tool_choice: 'required',
      max_tokens: 60,
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: toolCall.function.arguments },
    });
    expect(final.usage?.completion_tokens).toBeGreaterThan(0);

    // A tool's result sent back, then tool_choice none: a text answer.
    const text = await tiny.client.chat.completions.create({
      model: 'tiny',
      messages: [
        ...messages,
        { role: 'assistant', content: null, tool_calls: [toolCall] },
        { role: 'tool', tool_call_id: toolCall.id, content: '{"temperature": 21}' },
      ],
      tools: [weather],
      tool_choice: 'none',
      max_tokens: 8,
    });
    expect(text.choices[0]?.message.tool_calls).toBeUndefined();
    expect(typeof text.choices[0]?.message.content).toBe('string');
    await expect(
      tiny.client.chat.completions.create({
        model: 'tiny',
        messages,
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'nope' } },
      }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'tool_choice' } });
  });

  it('the SDK stream helper: text deltas, a finish reason of stop where the answer ended, a usage chunk', async () => {
    const stream = tiny.client.chat.completions.stream({
      model: 'tiny',
      messages: [{ role: 'user', content: 'Once upon a time' }],
      max_tokens: 200,
      stream_options: { include_usage: true },
    });
    let deltas = '';
    stream.on('content', (delta) => {
      deltas += delta;
    });
    const final = await stream.finalChatCompletion();
    const whole = await tiny.client.chat.completions.create({
      model: 'tiny',
      messages: [{ role: 'user', content: 'Once upon a time' }],
      max_tokens: 200,
    });
    expect(final.choices[0]?.message.content).toBe(whole.choices[0]?.message.content);
    expect(deltas).toBe(whole.choices[0]?.message.content);
    expect(final.choices[0]?.finish_reason).toBe(whole.choices[0]?.finish_reason);
    expect(final.usage).toEqual(whole.usage);
  });

  it('a minimal /v1/responses: text in, text out, streamed as typed events', async () => {
    const chat = await tiny.client.chat.completions.create({
      model: 'tiny',
      messages: [
        { role: 'system', content: 'Tell a story.' },
        { role: 'user', content: 'Once upon a time' },
      ],
      max_tokens: 20,
    });
    const response = await tiny.client.responses.create({
      model: 'tiny',
      instructions: 'Tell a story.',
      input: 'Once upon a time',
      max_output_tokens: 20,
    });
    expect(response.object).toBe('response');
    expect(response.output_text).toBe(chat.choices[0]?.message.content);
    expect(response.status).toBe(chat.choices[0]?.finish_reason === 'length' ? 'incomplete' : 'completed');
    expect(response.usage?.output_tokens).toBe(chat.usage?.completion_tokens);

    const stream = await tiny.client.responses.create({
      model: 'tiny',
      instructions: 'Tell a story.',
      input: [{ role: 'user', content: 'Once upon a time' }],
      max_output_tokens: 20,
      stream: true,
    });
    let text = '';
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe(response.output_text);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toMatch(/^response\.(completed|incomplete)$/);
    await expect(
      tiny.client.responses.create({ model: 'tiny', input: 'x', previous_response_id: 'resp_1' }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'previous_response_id' } });
  });
});
