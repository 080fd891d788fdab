// The benchmark's prompt suite and its promptfoo translation, both generated deterministically so every
// tool sends exactly the same 2,000 prompts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const SUBJECTS = [
  'a train leaving a station',
  'the boiling point of water on a mountain',
  'a shop that discounts every item',
  'two cyclists riding towards each other',
  'a recipe scaled for more guests',
  'a tank filling from two pipes',
  'the interest on a small savings account',
  'a garden fenced on three sides',
  'a library lending books each week',
  'a clock that runs a little fast',
];
const ASKS = [
  'Explain in one sentence what matters most about',
  'Give a short worked answer to a simple question about',
  'State one common mistake people make when reasoning about',
  'Describe, as plainly as you can, the arithmetic behind',
  'In a few words, what would you check first about',
];

/** Small deterministic PRNG (mulberry32) so the suite is identical on every machine. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Returns `count` distinct `{id, prompt}` items. */
export function makeSuite(count = 2000, seed = 20240601) {
  const next = rng(seed);
  const items = [];
  for (let i = 0; i < count; i++) {
    const ask = ASKS[Math.floor(next() * ASKS.length)];
    const subject = SUBJECTS[Math.floor(next() * SUBJECTS.length)];
    const n = 2 + Math.floor(next() * 97);
    // The item number keeps every prompt distinct, so no tool can collapse duplicates.
    items.push({
      id: `b${String(i + 1).padStart(4, '0')}`,
      prompt: `${ask} ${subject} (case ${i + 1}, n = ${n}).`,
    });
  }
  return items;
}

/** Writes the suite as waver's plain JSONL format. */
export function writeSuiteJsonl(path, items) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${items.map((item) => JSON.stringify(item)).join('\n')}\n`);
}

/**
 * Writes a promptfoo config that sends each prompt verbatim as one user message to the instant server.
 * JSON is valid YAML, so promptfoo reads it as its usual config format.
 */
export function writePromptfooConfig(path, items, baseUrl) {
  const config = {
    description: 'waver bench: 2,000 prompts against the instant server',
    prompts: ['{{prompt}}'],
    providers: [
      {
        id: 'openai:chat:bench',
        config: { apiBaseUrl: baseUrl, apiKey: 'sk-bench-dummy' },
      },
    ],
    tests: items.map((item) => ({ description: item.id, vars: { prompt: item.prompt } })),
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(config, null, 1));
}
