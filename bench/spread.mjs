#!/usr/bin/env node
// waver spread's budget against a known answer (issue 39): a loopback OpenAI-compatible endpoint
// whose per-template accuracies are known, 100 FormatSpread formats x 200 items. A cell (template
// t, item i) is right when u(t, i) < 0.6 + a_t + b_i, the template effects a_t ~ N(0, 0.08) and the
// item difficulties b_i ~ N(0, 0.15), u a seeded uniform: the server looks the prompt up among the
// 20,000 it can be asked (rendered by waver's own templates module) and answers the right option's
// text or a wrong one's. Then `waver spread` at budgets 5%, 10%, 25%, 100% of the grid (a store each,
// so each spends its own calls): the error of each budgeted quantile (5/25/50/75/95) against the
// full grid's, and the calls each spent.
// Goal: at 10% of the calls, every quantile within 0.03 of the full grid's.
//
//   npm run build && node bench/spread.mjs [--templates 100] [--items 200] [--concurrency 16] [--estimator deconvolved|prompteval|full-grid]
//
// Prints a table with the goal and PASS/FAIL, then one line `RESULT {...}`.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTemplates, renderTemplate } from '../dist/protocols/spread/templates.js';
import { PyRandom } from '../dist/util/random.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const TEMPLATES = Number(arg('templates', '100'));
const ITEMS = Number(arg('items', '200'));
const CONCURRENCY = arg('concurrency', '16');
const SEED = 7;
const BUDGETS = [0.05, 0.1, 0.25, 1];
// `--estimator deconvolved|prompteval|full-grid` (spread.estimator); the CLI's default when not given.
const ESTIMATOR = arg('estimator', undefined);
const GOAL = { budget: 0.1, error: 0.03 };
const out = join(here, 'out', 'spread');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// The items: four options, the key's text known to the server.
const rng = new PyRandom(20240939);
const normal = () => Math.sqrt(-2 * Math.log(1 - rng.random())) * Math.cos(2 * Math.PI * rng.random());
const items = Array.from({ length: ITEMS }, (_, i) => {
  const options = [0, 1, 2, 3].map((k) => `answer ${i}-${k}`);
  const key = rng.randbelow(4);
  return { id: `q${i}`, question: `Which is the answer to question ${i}?`, options, key, topic: 'bench' };
});
writeFileSync(
  join(out, 'items.jsonl'),
  `${items.map((it) => JSON.stringify({ id: it.id, question: it.question, choices: it.options, answer: 'ABCD'[it.key] })).join('\n')}\n`,
);
const templateEffect = Array.from({ length: TEMPLATES }, () => 0.08 * normal());
const itemEffect = Array.from({ length: ITEMS }, () => 0.15 * normal());
const templates = formatTemplates(TEMPLATES, SEED);
const answers = new Map();
const truth = templates.map((t, ti) => {
  let right = 0;
  items.forEach((it, ii) => {
    const ok = rng.random() < Math.min(0.98, Math.max(0.02, 0.6 + templateEffect[ti] + itemEffect[ii]));
    right += ok ? 1 : 0;
    answers.set(renderTemplate(t, it).prompt, it.options[ok ? it.key : (it.key + 1) % 4]);
  });
  return right / ITEMS;
});
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  return s[lo] + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]) - s[lo]);
};

let served = 0;
let unknown = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end('{}');
      return;
    }
    const prompt = JSON.parse(body).messages.at(-1).content;
    const text = answers.get(prompt);
    served++;
    if (text === undefined) unknown++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'bench',
        choices: [
          { index: 0, message: { role: 'assistant', content: text ?? 'no idea' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 40, completion_tokens: 3 },
      }),
    );
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/v1`;

const cli = resolve(here, '../dist/bin/waver.cjs');
const rows = [];
let fullQuantiles;
for (const budget of [...BUDGETS].reverse()) {
  const before = served;
  const t0 = performance.now();
  const r = await new Promise((done) => {
    const args = [
      cli,
      'spread',
      '--models',
      `openai:bench@${url}`,
      '--dataset',
      join(out, 'items.jsonl'),
      '--templates',
      String(TEMPLATES),
      '--budget',
      String(budget),
      '--seed',
      String(SEED),
      '--concurrency',
      CONCURRENCY,
      '--max-tokens',
      '8',
      '--format',
      'json',
      '--store',
      join(out, `budget-${budget}.db`),
      ...(ESTIMATOR ? ['--estimator', ESTIMATOR] : []),
    ];
    // Asynchronous, so this process's server answers while the CLI runs.
    {
      const child = spawn(process.execPath, args, {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_API_KEY: 'sk-bench' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => {
        stdout += c;
      });
      child.stderr.on('data', (c) => {
        stderr += c;
      });
      child.on('close', (code) => done({ code, stdout, stderr }));
    }
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.code !== 0) {
    console.error(`waver spread --budget ${budget} exited ${r.code}: ${r.stderr.slice(-2000)}`);
    process.exit(1);
  }
  const model = JSON.parse(r.stdout).models[0];
  const q = model.quantiles.map((x) => x.value);
  if (budget === 1) fullQuantiles = q;
  rows.push({
    budget,
    calls: served - before,
    seconds,
    quantiles: q,
    method: model.method,
    observed: model.observedCells,
  });
}
server.close();

const truthQ = [0.05, 0.25, 0.5, 0.75, 0.95].map((q) => quantile(truth, q));
const fmt = (x) => x.toFixed(3);
console.log(
  `waver spread: ${TEMPLATES} templates x ${ITEMS} items (${TEMPLATES * ITEMS} cells); known per-template accuracies, quantiles ${truthQ.map(fmt).join(' / ')}`,
);
console.log('| budget | calls | s | estimator | q05 | q25 | q50 | q75 | q95 | max |error| vs full grid |');
console.log('|---|---:|---:|---|---:|---:|---:|---:|---:|---:|');
const result = [];
for (const row of rows.reverse()) {
  const errors = row.quantiles.map((v, k) => Math.abs(v - fullQuantiles[k]));
  const maxError = Math.max(...errors);
  result.push({
    budget: row.budget,
    calls: row.calls,
    seconds: Number(row.seconds.toFixed(1)),
    method: row.method,
    errors: errors.map((e) => Number(e.toFixed(4))),
    maxError: Number(maxError.toFixed(4)),
  });
  console.log(
    `| ${row.budget * 100}% | ${row.calls} | ${row.seconds.toFixed(1)} | ${row.method} | ${row.quantiles.map(fmt).join(' | ')} | ${fmt(maxError)} |`,
  );
}
const atGoal = result.find((r) => r.budget === GOAL.budget);
const pass = atGoal !== undefined && atGoal.maxError <= GOAL.error;
console.log(
  `goal: at ${GOAL.budget * 100}% of the calls every quantile within ${GOAL.error} of the full grid's: ${pass ? 'PASS' : 'FAIL'} (max error ${atGoal?.maxError})`,
);
if (unknown > 0) console.log(`warning: ${unknown} prompt(s) the server did not know (answered 'no idea')`);
console.log(
  `RESULT ${JSON.stringify({ name: 'spread', goal: `max quantile error <= ${GOAL.error} at ${GOAL.budget * 100}%`, pass, templates: TEMPLATES, items: ITEMS, truth: truthQ.map((x) => Number(x.toFixed(4))), full: fullQuantiles.map((x) => Number(x.toFixed(4))), unknownPrompts: unknown, budgets: result })}`,
);
