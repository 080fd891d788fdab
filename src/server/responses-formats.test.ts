import { describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../test-support/shared.js';

/**
 * `/v1/responses` with `text.format` (json_schema, json_object) and `tools`, as the chat route
 * takes `response_format` and `tools`: held to the schema by grammar, calls as `function_call`
 * output items, results sent back as `function_call_output` (the openai SDK's `responses.parse`,
 * the Vercel AI SDK's default `openai(model)`).
 */
describe.skipIf(tinyModelMissing)(
  `waver serve's /v1/responses formats and tools ${tinyModelMissing ?? ''}`,
  () => {
    const tiny = servedTinyModel(512);
    const schema = {
      type: 'object',
      properties: { answer: { enum: ['yes', 'no'] }, sure: { type: 'boolean' } },
      required: ['answer', 'sure'],
      additionalProperties: false,
    };
    const weather = {
      type: 'function' as const,
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: {
        type: 'object',
        properties: { unit: { enum: ['celsius', 'fahrenheit'] } },
        required: ['unit'],
        additionalProperties: false,
      },
      strict: true,
    };

    it('text.format json_schema: the output text is JSON of the schema, whole and streamed', async () => {
      const format = { type: 'json_schema' as const, name: 'verdict', schema, strict: true };
      const response = await tiny.client.responses.create({
        model: 'tiny',
        input: 'Is the cat happy?',
        text: { format },
        max_output_tokens: 60,
      });
      expect(response.status).toBe('completed');
      const value = JSON.parse(response.output_text);
      expect(['yes', 'no']).toContain(value.answer);
      expect(typeof value.sure).toBe('boolean');
      let streamed = '';
      for await (const event of await tiny.client.responses.create({
        model: 'tiny',
        input: 'Is the cat happy?',
        text: { format },
        max_output_tokens: 60,
        stream: true,
      }))
        if (event.type === 'response.output_text.delta') streamed += event.delta;
      expect(streamed).toBe(response.output_text);
      const object = await tiny.client.responses.create({
        model: 'tiny',
        input: 'Answer in JSON.',
        text: { format: { type: 'json_object' } },
        max_output_tokens: 200,
      });
      expect(object.output_text.trimStart().startsWith('{')).toBe(true);
      await expect(
        tiny.client.responses.create({
          model: 'tiny',
          input: 'x',
          text: { format: { type: 'json_schema', name: 'bad', schema: { enum: 3 } } },
        }),
      ).rejects.toMatchObject({
        status: 400,
        error: { param: 'text.format.schema', code: 'invalid_json_schema' },
      });
    });

    it('tools: a function_call output item, its result sent back as function_call_output, whole and streamed', async () => {
      const called = await tiny.client.responses.create({
        model: 'tiny',
        input: 'What is the weather?',
        tools: [weather],
        tool_choice: 'required',
        max_output_tokens: 60,
      });
      const call = called.output[0];
      expect(call?.type).toBe('function_call');
      if (call?.type !== 'function_call') throw new Error('not a call');
      expect(call.name).toBe('get_weather');
      expect(call.call_id).toMatch(/^call_/);
      expect(['celsius', 'fahrenheit']).toContain(JSON.parse(call.arguments).unit);

      const types: string[] = [];
      let args = '';
      for await (const event of await tiny.client.responses.create({
        model: 'tiny',
        input: 'What is the weather?',
        tools: [weather],
        tool_choice: 'required',
        max_output_tokens: 60,
        stream: true,
      })) {
        types.push(event.type);
        if (event.type === 'response.function_call_arguments.done') args = event.arguments;
      }
      expect(args).toBe(call.arguments);
      expect(types).toContain('response.output_item.added');
      expect(types.at(-1)).toBe('response.completed');

      const answered = await tiny.client.responses.create({
        model: 'tiny',
        input: [
          { role: 'user', content: 'What is the weather?' },
          { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
          { type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 21}' },
        ],
        tools: [weather],
        tool_choice: 'none',
        max_output_tokens: 8,
      });
      expect(answered.output[0]?.type).toBe('message');
      expect(typeof answered.output_text).toBe('string');
    });
  },
);
