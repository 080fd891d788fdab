#!/usr/bin/env node
/**
 * Tokens/s of waver's gguf provider vs node-llama-cpp's own LlamaCompletion on the same prompt
 * tokens, greedy, same model, one thread. A by-hand measurement, not a test:
 *
 *   npm run build && node bench/gguf-throughput.mjs [model.gguf] [--tokens N] [--rounds R]
 *
 * Default model: ../shared/models/stories260K.gguf. LlamaCompletion runs with its repeat penalty
 * off so that both do the same greedy work (and produce the same text, which is checked), once on a
 * context with node-llama-cpp's defaults and once with the provider's own settings (f32 KV cache,
 * no flash attention). waver runs with and without per-token log-probs (full-distribution entropy
 * and top-5 alternatives). A bare node-llama-cpp loop asking for the distribution at every token
 * and reading nothing of it is the ceiling for log-probs through node-llama-cpp's public API: the
 * binding hands the distribution over as a JS array of 2 x vocabulary numbers, then a Map
 * (docs/decisions.md E22). Rounds alternate between the contenders; the median round is reported.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LlamaCompletion } from 'node-llama-cpp';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const modelPath = resolve(
  args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ??
    resolve(here, '../../shared/models/stories260K.gguf'),
);
const maxTokens = flag('--tokens', 128);
const rounds = flag('--rounds', 5);

const dist = resolve(here, '../dist/models/gguf.js');
if (!existsSync(dist)) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
if (!existsSync(modelPath)) {
  console.error(`model not found: ${modelPath}`);
  process.exit(1);
}
const { createGgufProvider } = await import(dist);
const { acquireModel } = await import(resolve(here, '../dist/models/llama.js'));

const prompts = [
  'Once upon a time',
  'The cat sat on the mat.',
  'Lily had a red ball.',
  'Tom and Sue went to the shop.',
  'One day, a little bird',
  'The sun was hot and the sky was blue.',
  'Max the dog liked to run.',
  'A little boy named Tim',
];

const provider = await createGgufProvider({ modelPath, chatTemplate: 'raw' });
const { model, release } = await acquireModel(modelPath);
const promptTokens = prompts.map((p) => provider.renderPrompt({ messages: [], rawPrompt: p }).tokens);

async function completionRunner(contextOptions) {
  const context = await model.createContext({ contextSize: provider.contextSize, ...contextOptions });
  const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
  return {
    async run() {
      let tokens = 0;
      const texts = [];
      for (const input of promptTokens) {
        // LlamaCompletion prepends BOS itself.
        const text = await completion.generateCompletion(input.slice(1), {
          maxTokens,
          temperature: 0,
          repeatPenalty: false,
          onToken: (chunk) => {
            tokens += chunk.length;
          },
        });
        texts.push(text);
      }
      return { tokens, texts };
    },
    dispose: () => context.dispose(),
  };
}

async function distributionLoopRunner() {
  const context = await model.createContext({ contextSize: provider.contextSize, ...sameSettings });
  const sequence = context.getSequence();
  return {
    async run() {
      let tokens = 0;
      for (const input of promptTokens) {
        await sequence.clearHistory();
        const iterator = sequence.evaluateWithMetadata(
          input,
          { probabilities: true },
          { temperature: 0, yieldEogToken: true },
        );
        let step = await iterator.next();
        for (let n = 0; !step.done && !model.isEogToken(step.value.token); ) {
          tokens++;
          if (++n >= maxTokens) break;
          step = await iterator.next(step.value.token);
        }
        await iterator.return();
      }
      return { tokens, texts: [] };
    },
    dispose: () => context.dispose(),
  };
}

function waverRunner(logprobs) {
  return {
    async run() {
      let tokens = 0;
      const texts = [];
      for (const prompt of prompts) {
        const r = await provider.generate({
          messages: [],
          rawPrompt: prompt,
          maxTokens,
          ...(logprobs ? { logprobs: true, topLogprobs: 5 } : {}),
        });
        tokens += r.usage.outputTokens;
        texts.push(r.text);
      }
      return { tokens, texts };
    },
    dispose: async () => {},
  };
}

const sameSettings = {
  flashAttention: false,
  experimentalKvCacheKeyType: 'F32',
  experimentalKvCacheValueType: 'F32',
};
const contenders = {
  'LlamaCompletion (node-llama-cpp defaults)': await completionRunner({}),
  'LlamaCompletion (f32 KV, no flash attn)': await completionRunner(sameSettings),
  'node-llama-cpp loop, distribution unread': await distributionLoopRunner(),
  'waver gguf, no log-probs': waverRunner(false),
  'waver gguf, log-probs + entropy + top-5': waverRunner(true),
};

const rates = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
const texts = {};
for (const [name, c] of Object.entries(contenders)) texts[name] = (await c.run()).texts; // warm-up
for (let round = 0; round < rounds; round++) {
  const order = Object.entries(contenders);
  if (round % 2) order.reverse();
  for (const [name, c] of order) {
    const t0 = performance.now();
    const { tokens } = await c.run();
    rates[name].push((tokens / (performance.now() - t0)) * 1000);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sameSettingsRate = median(rates['LlamaCompletion (f32 KV, no flash attn)']);
const defaults = median(rates['LlamaCompletion (node-llama-cpp defaults)']);
console.log(
  `model ${modelPath}, ${prompts.length} prompts x ${maxTokens} tokens, ${rounds} rounds, median tokens/s:`,
);
for (const [name, xs] of Object.entries(rates)) {
  const m = median(xs);
  const ratios = `${(m / sameSettingsRate).toFixed(2)}x same-settings, ${(m / defaults).toFixed(2)}x defaults`;
  console.log(`  ${name.padEnd(42)} ${m.toFixed(0).padStart(6)} tok/s   ${ratios}`);
}
const reference = texts['LlamaCompletion (f32 KV, no flash attn)'];
// LlamaCompletion drops the leading space of the first token (it detokenizes without the prompt); waver keeps it.
const same = texts['waver gguf, no log-probs'].every((t, i) => t.trimStart() === reference[i].trimStart());
console.log(`  waver's text identical to LlamaCompletion's on every prompt: ${same}`);
if (!same && process.env.DEBUG_TEXTS)
  for (const [i, t] of reference.entries())
    console.log(JSON.stringify(t), '\n', JSON.stringify(texts['waver gguf, no log-probs'][i]));

for (const c of Object.values(contenders)) await c.dispose();
await provider.close();
await release();
