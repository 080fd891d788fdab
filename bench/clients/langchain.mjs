/**
 * LangChain JS (`@langchain/openai`, `@langchain/core`) against `waver serve` over the tiny model:
 * ChatOpenAI invoke, stream and batch, `withStructuredOutput` (json_schema), `bindTools` in an
 * agent loop that ends, OpenAIEmbeddings and the completions `OpenAI` LLM; each result checked, one
 * PASS/FAIL line per call.
 *
 * Usage: npm --prefix bench/clients ci && npx tsc -p tsconfig.build.json
 *        node bench/clients/langchain.mjs [BASE_URL MODEL]   (records langchain.out.json when it starts serve)
 */
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI, OpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { z } from 'zod';
import { embeddingLength, runCalls, server, versionOf } from './harness.mjs';

const MAX_STEPS = 4;
const served = await server();
const configuration = { baseURL: served.url };
const common = { model: served.model, apiKey: 'none', configuration, maxRetries: 0 };
const chat = new ChatOpenAI({ ...common, maxTokens: 16 });
const dims = await embeddingLength(served.url, served.model);
const Verdict = z.object({ answer: z.enum(['yes', 'no']), sure: z.boolean() });
const weather = tool(async () => JSON.stringify({ temperature: 21 }), {
  name: 'get_weather',
  description: 'The weather in a city',
  schema: z.object({ unit: z.enum(['celsius', 'fahrenheit']) }),
});

/** Calls tools until the model answers in text, at most MAX_STEPS model calls; `first` is step 1's tool_choice. */
async function agentLoop(first) {
  // Greedy, so whether the tiny model calls again under `auto` is the same on every run.
  const model = new ChatOpenAI({ ...common, maxTokens: 60, temperature: 0 });
  const messages = [new HumanMessage('What is the weather?')];
  let toolCalls = 0;
  for (let step = 1; step <= MAX_STEPS; step++) {
    const reply = await model
      .bindTools([weather], { tool_choice: step === 1 ? first : 'auto' })
      .invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) {
      const text = String(reply.content);
      const ok = text.length > 0 && (first === 'auto' || toolCalls >= 1);
      return [ok, `${step} steps, ${toolCalls} tool calls, text ${JSON.stringify(text.slice(0, 60))}`];
    }
    for (const call of reply.tool_calls) {
      toolCalls++;
      messages.push(new ToolMessage({ content: await weather.invoke(call.args), tool_call_id: call.id }));
    }
  }
  return [false, `no final text after ${MAX_STEPS} steps (${toolCalls} tool calls)`];
}

const calls = [
  [
    'ChatOpenAI invoke',
    async () => {
      const r = await chat.invoke('Once upon a time');
      const ok = typeof r.content === 'string' && r.content.length > 0 && r.usage_metadata?.output_tokens > 0;
      return [ok, `content ${JSON.stringify(r.content)}, usage ${JSON.stringify(r.usage_metadata)}`];
    },
  ],
  [
    'ChatOpenAI stream',
    async () => {
      let deltas = 0;
      let finish;
      let usage;
      for await (const chunk of await chat.stream('Once upon a time')) {
        if (chunk.content) deltas++;
        finish = chunk.response_metadata?.finish_reason ?? finish;
        usage = chunk.usage_metadata ?? usage;
      }
      return [
        deltas >= 1 && finish !== undefined,
        `${deltas} deltas, finish ${finish}, usage ${JSON.stringify(usage)}`,
      ];
    },
  ],
  [
    'ChatOpenAI batch',
    async () => {
      const r = await chat.batch(['Once upon a time', 'The cat', 'A dog']);
      const ok = r.length === 3 && r.every((m) => typeof m.content === 'string' && m.content.length > 0);
      return [ok, r.map((m) => JSON.stringify(m.content)).join(' | ')];
    },
  ],
  [
    'ChatOpenAI withStructuredOutput (jsonSchema)',
    async () => {
      const model = new ChatOpenAI({ ...common, maxTokens: 60 });
      const r = await model
        .withStructuredOutput(Verdict, { method: 'jsonSchema', name: 'verdict' })
        .invoke('Is the cat happy?');
      return [Verdict.safeParse(r).success, JSON.stringify(r)];
    },
  ],
  [
    'ChatOpenAI useResponsesApi invoke',
    async () => {
      const r = await new ChatOpenAI({ ...common, maxTokens: 16, useResponsesApi: true }).invoke(
        'Once upon a time',
      );
      const text = r.text ?? String(r.content);
      return [text.length > 0, `text ${JSON.stringify(text)}`];
    },
  ],
  [`bindTools agent loop (tool_choice auto, <= ${MAX_STEPS} steps)`, () => agentLoop('auto')],
  [
    `bindTools agent loop (first step required, then auto, <= ${MAX_STEPS} steps)`,
    () => agentLoop('required'),
  ],
  [
    'ChatOpenAI bindTools stream (tool_choice required)',
    async () => {
      const model = new ChatOpenAI({ ...common, maxTokens: 60 }).bindTools([weather], {
        tool_choice: 'required',
      });
      let whole;
      for await (const chunk of await model.stream('What is the weather?'))
        whole = whole ? whole.concat(chunk) : chunk;
      const call = whole?.tool_calls?.[0];
      const ok = call?.name === 'get_weather' && ['celsius', 'fahrenheit'].includes(call.args.unit);
      return [ok, `tool_calls ${JSON.stringify(whole?.tool_calls)}`];
    },
  ],
  [
    'OpenAIEmbeddings embedQuery',
    async () => {
      const r = await new OpenAIEmbeddings(common).embedQuery('Once upon a time');
      return [r.length === dims, `${r.length} dimensions (the route: ${dims})`];
    },
  ],
  [
    'OpenAIEmbeddings embedDocuments',
    async () => {
      const r = await new OpenAIEmbeddings(common).embedDocuments(['a cat', 'a dog', 'a hat']);
      const ok = r.length === 3 && r.every((e) => e.length === dims);
      return [ok, `${r.length} embeddings of ${r.map((e) => e.length).join(', ')}`];
    },
  ],
  [
    'OpenAI (completions) invoke',
    async () => {
      const r = await new OpenAI({ ...common, maxTokens: 16 }).invoke('Once upon a time');
      return [typeof r === 'string' && r.length > 0, JSON.stringify(r)];
    },
  ],
  [
    'OpenAI (completions) stream',
    async () => {
      let deltas = 0;
      for await (const chunk of await new OpenAI({ ...common, maxTokens: 16 }).stream('Once upon a time')) {
        if (chunk) deltas++;
      }
      return [deltas >= 1, `${deltas} deltas`];
    },
  ],
];

const version = `@langchain/openai ${await versionOf('@langchain/openai')}, @langchain/core ${await versionOf('@langchain/core')}`;
const summary = await runCalls('langchain', version, calls);
await served.close();
process.exit(summary.failed.length === 0 ? 0 : 1);
