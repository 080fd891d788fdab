import { describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../test-support/shared.js';

/**
 * `tool_choice: "auto"` leaves the model the choice between a reply and a call (docs/decisions.md
 * E44), so an agent loop (openai's runTools, the AI SDK's stopWhen, LangChain) ends when the model
 * replies; `"required"` always calls.
 */
describe.skipIf(tinyModelMissing)(`waver serve's tool_choice ${tinyModelMissing ?? ''}`, () => {
  const tiny = servedTinyModel(512);
  const weather = {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  };
  const request = (seed: number, tool_choice: 'auto' | 'required') => ({
    model: 'tiny',
    messages: [{ role: 'user' as const, content: 'Once upon a time, what was the weather?' }],
    tools: [weather],
    tool_choice,
    temperature: 1,
    seed,
    max_tokens: 80,
  });
  const ask = (seed: number, choice: 'auto' | 'required') =>
    tiny.client.chat.completions.create(request(seed, choice));

  it('"auto": some answers reply in text, some call; "required" always calls', async () => {
    const seeds = Array.from({ length: 12 }, (_, i) => i);
    const auto = await Promise.all(seeds.map((seed) => ask(seed, 'auto')));
    const finished = auto.map((r) => r.choices[0]).filter((c) => c?.finish_reason !== 'length');
    const replies = finished.filter((c) => c?.finish_reason === 'stop');
    const calls = finished.filter((c) => c?.finish_reason === 'tool_calls');
    expect(replies.length).toBeGreaterThan(0);
    expect(calls.length).toBeGreaterThan(0);
    for (const reply of replies) {
      expect(typeof reply?.message.content).toBe('string');
      expect(reply?.message.tool_calls ?? []).toEqual([]);
    }
    for (const call of calls) expect(call?.message.tool_calls?.[0]?.type).toBe('function');
    const required = await Promise.all(seeds.slice(0, 4).map((seed) => ask(seed, 'required')));
    for (const r of required)
      if (r.choices[0]?.finish_reason !== 'length') expect(r.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('a streamed "auto" reply arrives as content, the same as unstreamed', async () => {
    for (const seed of Array.from({ length: 12 }, (_, i) => i)) {
      const whole = await ask(seed, 'auto');
      if (whole.choices[0]?.finish_reason !== 'stop') continue;
      let content = '';
      let finish: string | null = null;
      for await (const chunk of await tiny.client.chat.completions.create({
        ...request(seed, 'auto'),
        stream: true,
      })) {
        content += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(content).toBe(whole.choices[0]?.message.content);
      expect(finish).toBe('stop');
      return;
    }
    throw new Error('no seed gave a text reply');
  });
});
