/**
 * The Vercel AI SDK (`ai` + `@ai-sdk/openai`) against `waver serve` over the tiny model: text,
 * streams, objects held to a zod schema, a tool loop under `stopWhen`, through the default
 * `openai(model)` (the Responses API), `openai.chat(model)` and `openai.completion(model)`, and
 * embeddings; each result checked, one PASS/FAIL line per call.
 *
 * Usage: npm --prefix bench/clients ci && npx tsc -p tsconfig.build.json
 *        node bench/clients/ai-sdk.mjs [BASE_URL MODEL]   (records ai-sdk.out.json when it starts serve)
 */
import { createOpenAI } from '@ai-sdk/openai';
import {
  embed,
  embedMany,
  generateObject,
  generateText,
  stepCountIs,
  streamObject,
  streamText,
  tool,
} from 'ai';
import { z } from 'zod';
import { embeddingLength, runCalls, server, versionOf } from './harness.mjs';

const MAX_STEPS = 4;
const served = await server();
const openai = createOpenAI({ baseURL: served.url, apiKey: 'none' });
const dims = await embeddingLength(served.url, served.model);
const Verdict = z.object({ answer: z.enum(['yes', 'no']), sure: z.boolean() });
const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ unit: z.enum(['celsius', 'fahrenheit']) }),
  execute: async () => ({ temperature: 21 }),
});

const models = {
  'openai() (responses)': openai(served.model),
  'openai.chat()': openai.chat(served.model),
  'openai.completion()': openai.completion(served.model),
};
const prompt = 'Once upon a time';
const calls = [];
for (const [name, model] of Object.entries(models)) {
  calls.push([
    `${name} generateText`,
    async () => {
      const r = await generateText({ model, prompt, maxOutputTokens: 16, maxRetries: 0 });
      return [
        r.text.length > 0 && r.usage.outputTokens > 0,
        `text ${JSON.stringify(r.text)}, finish ${r.finishReason}`,
      ];
    },
  ]);
  calls.push([
    `${name} streamText`,
    async () => {
      const r = streamText({ model, prompt, maxOutputTokens: 16, maxRetries: 0 });
      let deltas = 0;
      let finish;
      for await (const part of r.fullStream) {
        if (part.type === 'text-delta') deltas++;
        if (part.type === 'finish') finish = part.finishReason;
        if (part.type === 'error') throw part.error;
      }
      return [deltas >= 1 && finish !== undefined, `${deltas} deltas, finish ${finish}`];
    },
  ]);
  if (name === 'openai.completion()') continue; // the completions API has no schema or tools
  calls.push([
    `${name} generateObject (zod, json_schema)`,
    async () => {
      const r = await generateObject({
        model,
        schema: Verdict,
        prompt: 'Is the cat happy?',
        maxOutputTokens: 60,
        maxRetries: 0,
      });
      return [Verdict.safeParse(r.object).success, JSON.stringify(r.object)];
    },
  ]);
  calls.push([
    `${name} streamObject (zod)`,
    async () => {
      const r = streamObject({
        model,
        schema: Verdict,
        prompt: 'Is the cat happy?',
        maxOutputTokens: 60,
        maxRetries: 0,
      });
      let partials = 0;
      // The result's promises settle only once the stream is read.
      for await (const _ of r.partialObjectStream) partials++;
      const object = await r.object;
      return [
        partials >= 1 && Verdict.safeParse(object).success,
        `${partials} partial objects, then ${JSON.stringify(object)}`,
      ];
    },
  ]);
  calls.push([
    `${name} streamText + tools, first step required, stopWhen(stepCountIs(${MAX_STEPS}))`,
    async () => {
      const r = streamText({
        model,
        prompt: 'What is the weather?',
        tools: { weather },
        stopWhen: stepCountIs(MAX_STEPS),
        prepareStep: ({ stepNumber }) => (stepNumber === 0 ? { toolChoice: 'required' } : {}),
        maxOutputTokens: 60,
        temperature: 0,
        maxRetries: 0,
      });
      const seen = new Set();
      for await (const part of r.fullStream) {
        if (part.type === 'error') throw part.error;
        seen.add(part.type);
      }
      const [steps, finish, text] = [await r.steps, await r.finishReason, await r.text];
      const ok =
        seen.has('tool-call') && seen.has('tool-result') && seen.has('text-delta') && finish === 'stop';
      return [
        ok && steps.length <= MAX_STEPS,
        `${steps.length} steps, finish ${finish}, text ${JSON.stringify(text)}, parts ${[...seen].join(',')}`,
      ];
    },
  ]);
  // Under `auto` the model may answer at once; a first step that must call shows the call's round trip too.
  for (const first of ['auto', 'required']) {
    calls.push([
      `${name} tools + stopWhen(stepCountIs(${MAX_STEPS})), first step ${first}`,
      async () => {
        const r = await generateText({
          model,
          prompt: 'What is the weather?',
          tools: { weather },
          stopWhen: stepCountIs(MAX_STEPS),
          prepareStep: ({ stepNumber }) => (stepNumber === 0 ? { toolChoice: first } : {}),
          maxOutputTokens: 60,
          // Greedy, so whether the tiny model calls again under `auto` is the same on every run.
          temperature: 0,
          maxRetries: 0,
        });
        const toolCalls = r.steps.flatMap((s) => s.toolCalls).length;
        const ended = r.finishReason === 'stop' && r.steps.length <= MAX_STEPS && r.text.length > 0;
        const called = first === 'auto' || toolCalls >= 1;
        const why = `${r.steps.length} steps, ${toolCalls} tool calls, finish ${r.finishReason}, text ${JSON.stringify(r.text.slice(0, 60))}`;
        return [ended && called, why];
      },
    ]);
  }
}
calls.push([
  'embed',
  async () => {
    const r = await embed({
      model: openai.embedding(served.model),
      value: 'Once upon a time',
      maxRetries: 0,
    });
    return [r.embedding.length === dims, `${r.embedding.length} dimensions (the route: ${dims})`];
  },
]);
calls.push([
  'embedMany',
  async () => {
    const r = await embedMany({
      model: openai.embedding(served.model),
      values: ['a cat', 'a dog', 'a hat'],
      maxRetries: 0,
    });
    const ok = r.embeddings.length === 3 && r.embeddings.every((e) => e.length === dims);
    return [ok, `${r.embeddings.length} embeddings of ${r.embeddings.map((e) => e.length).join(', ')}`];
  },
]);

const summary = await runCalls(
  'ai-sdk',
  `ai ${await versionOf('ai')}, @ai-sdk/openai ${await versionOf('@ai-sdk/openai')}`,
  calls,
);
await served.close();
process.exit(summary.failed.length === 0 ? 0 : 1);
