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
 * (docs/decisions.md E23). With the patched addon built (`npm run build:gguf-native`, E30) every
 * contender runs on it, and waver's log-probs are timed both through it and through the public
 * route; the two routes' log-probs are compared on every token. Within a round each prompt is run by every contender in turn, the
 * order rotating; the median round is reported, and each ratio with its range over the rounds.
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
const publicProvider = await createGgufProvider({ modelPath, chatTemplate: 'raw', nativeLogits: false });
const { model, release } = await acquireModel(modelPath);
const promptTokens = prompts.map((p) => provider.renderPrompt({ messages: [], rawPrompt: p }).tokens);

// A runner generates for one prompt (by index) and says how many tokens it produced.
async function completionRunner(contextOptions) {
  const context = await model.createContext({ contextSize: provider.contextSize, ...contextOptions });
  const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
  return {
    async run(i) {
      let tokens = 0;
      // LlamaCompletion prepends BOS itself.
      const text = await completion.generateCompletion(promptTokens[i].slice(1), {
        maxTokens,
        temperature: 0,
        repeatPenalty: false,
        onToken: (chunk) => {
          tokens += chunk.length;
        },
      });
      return { tokens, text };
    },
    dispose: () => context.dispose(),
  };
}

async function distributionLoopRunner() {
  const context = await model.createContext({ contextSize: provider.contextSize, ...sameSettings });
  const sequence = context.getSequence();
  return {
    async run(i) {
      let tokens = 0;
      await sequence.clearHistory();
      const iterator = sequence.evaluateWithMetadata(
        promptTokens[i],
        { probabilities: true },
        { temperature: 0, yieldEogToken: true },
      );
      let step = await iterator.next();
      while (!step.done && !model.isEogToken(step.value.token)) {
        if (++tokens >= maxTokens) break;
        step = await iterator.next(step.value.token);
      }
      await iterator.return();
      return { tokens };
    },
    dispose: () => context.dispose(),
  };
}

function waverRunner(logprobs, on = provider) {
  return {
    async run(i) {
      const r = await on.generate({
        messages: [],
        rawPrompt: prompts[i],
        maxTokens,
        ...(logprobs ? { logprobs: true, topLogprobs: 5 } : {}),
      });
      return { tokens: r.usage.outputTokens, text: r.text, entries: r.tokens };
    },
    dispose: async () => {},
  };
}

const sameSettings = {
  flashAttention: false,
  experimentalKvCacheKeyType: 'F32',
  experimentalKvCacheValueType: 'F32',
};
const SAME = 'LlamaCompletion (f32 KV, no flash attn)';
const DEFAULTS = 'LlamaCompletion (node-llama-cpp defaults)';
const LOGPROBS = 'waver gguf, log-probs + entropy + top-5';
const PUBLIC = 'waver gguf, same via the public route';
const contenders = {
  [DEFAULTS]: await completionRunner({}),
  [SAME]: await completionRunner(sameSettings),
  'node-llama-cpp loop, distribution unread': await distributionLoopRunner(),
  'waver gguf, no log-probs': waverRunner(false),
  [LOGPROBS]: waverRunner(true),
};
if (provider.nativeLogits) contenders[PUBLIC] = waverRunner(true, publicProvider);
const names = Object.keys(contenders);

const texts = {};
const entries = {};
for (const name of names) {
  texts[name] = [];
  entries[name] = [];
  for (let i = 0; i < prompts.length; i++) {
    const r = await contenders[name].run(i); // warm-up
    texts[name].push(r.text);
    entries[name].push(r.entries);
  }
}
// Each prompt is run by every contender in turn, the order rotating, so that a shared machine's
// load changes reach them all alike; a round's rate is its tokens over its time, per contender.
const rates = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const spent = Object.fromEntries(names.map((name) => [name, { tokens: 0, ms: 0 }]));
  for (let i = 0; i < prompts.length; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + i + round) % names.length];
      const t0 = performance.now();
      const { tokens } = await contenders[name].run(i);
      spent[name].ms += performance.now() - t0;
      spent[name].tokens += tokens;
    }
  }
  for (const name of names) rates[name].push((spent[name].tokens / spent[name].ms) * 1000);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `binary: ${provider.nativeLogits ? 'patched addon (npm run build:gguf-native), log-probs read through it' : "node-llama-cpp's prebuilt, log-probs through its public route"}`,
);
console.log(
  `model ${modelPath}, ${prompts.length} prompts x ${maxTokens} tokens, ${rounds} rounds, median tokens/s (ratio: median [min-max] over rounds):`,
);
for (const name of names) {
  const ratio = (to) => {
    const xs = rates[name].map((r, round) => r / rates[to][round]);
    return `${median(xs).toFixed(2)}x [${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}]`;
  };
  console.log(
    `  ${name.padEnd(42)} ${median(rates[name]).toFixed(0).padStart(6)} tok/s   ${ratio(SAME)} same-settings, ${ratio(DEFAULTS)} defaults`,
  );
}
const reference = texts[SAME];
// LlamaCompletion drops the leading space of the first token (it detokenizes without the prompt); waver keeps it.
const same = texts['waver gguf, no log-probs'].every((t, i) => t.trimStart() === reference[i].trimStart());
console.log(`  waver's text identical to LlamaCompletion's on every prompt: ${same}`);
if (!same && process.env.DEBUG_TEXTS)
  for (const [i, t] of reference.entries())
    console.log(JSON.stringify(t), '\n', JSON.stringify(texts['waver gguf, no log-probs'][i]));

if (provider.nativeLogits) {
  // Largest difference between the two routes over every token's log-prob, entropy and top-5 log-probs.
  let gap = 0;
  let sameTokens = true;
  for (const [i, fast] of entries[LOGPROBS].entries()) {
    const slow = entries[PUBLIC][i];
    sameTokens &&= texts[LOGPROBS][i] === texts[PUBLIC][i] && fast.length === slow.length;
    for (const [j, e] of fast.entries()) {
      const f = slow[j];
      gap = Math.max(gap, Math.abs(e.logprob - f.logprob), Math.abs(e.entropy - f.entropy));
      for (const [k, t] of e.top.entries()) {
        sameTokens &&= t.token === f.top[k].token;
        gap = Math.max(gap, Math.abs(t.logprob - f.top[k].logprob));
      }
    }
  }
  console.log(
    `  patched vs public route: same text and top tokens ${sameTokens}, largest |difference| ${gap.toExponential(1)} nats (log-probs, entropy, top-5)`,
  );
}

for (const c of Object.values(contenders)) await c.dispose();
await provider.close();
await publicProvider.close();
await release();
