import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, sharedFile } from '../test-support/shared.js';
import { createGgufProvider, type GgufProvider } from './gguf.js';
import type { TokenLogprob } from './types.js';

const target = `${process.platform}-${process.arch}`;
const llamaDir = join(repoRoot, 'node_modules', 'node-llama-cpp', 'llama');
// Where scripts/gguf-native/build.mjs installs the patched addon, and node-llama-cpp looks first.
const patchedBuild = existsSync(join(llamaDir, 'localBuilds', target, 'buildDone.status'));
const notBuilt = patchedBuild
  ? ''
  : 'skipped: the patched addon is not built (run `npm run build:gguf-native`; CI builds it)';
const hasPatchTool = (() => {
  try {
    execFileSync('patch', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasPatchTool)(
  `the logit-summary and layer-states patches ${hasPatchTool ? '' : '(skipped: no `patch` on PATH)'}`,
  () => {
    it("apply to the installed node-llama-cpp's addon sources, in build.mjs's order", () => {
      const dir = mkdtempSync(join(tmpdir(), 'waver-patch-'));
      try {
        cpSync(join(llamaDir, 'addon'), join(dir, 'addon'), { recursive: true });
        // Each throws (and fails the test) when a hunk does not apply, e.g. after a node-llama-cpp upgrade.
        for (const name of ['logit-summary.patch', 'layer-states.patch'])
          execFileSync(
            'patch',
            ['-p1', '--forward', '--quiet', '-i', join(repoRoot, 'scripts', 'gguf-native', name)],
            {
              cwd: dir,
            },
          );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);

const models = [
  ['stories260K.gguf (512-token vocabulary)', sharedFile('models/stories260K.gguf')],
  ['llama-2-tiny-random.gguf (32,000-token vocabulary)', sharedFile('models/llama-2-tiny-random.gguf')],
] as const;

for (const [name, modelPath] of models) {
  const missing = modelPath ? '' : `skipped: ../shared/models/${name.split(' ')[0]} is not there`;

  describe.skipIf(!modelPath || !patchedBuild)(
    `greedy log-probs through the patched addon on ${name} ${missing || notBuilt}`,
    () => {
      let fast: GgufProvider;
      let reference: GgufProvider;
      beforeAll(async () => {
        fast = await createGgufProvider({ modelPath: modelPath as string, chatTemplate: 'raw' });
        reference = await createGgufProvider({
          modelPath: modelPath as string,
          chatTemplate: 'raw',
          nativeLogits: false,
        });
      });
      afterAll(async () => {
        await fast?.close();
        await reference?.close();
      });

      it("match the public route's on every token within 1e-5: log-prob, entropy, top-5, with the same text", async () => {
        expect(fast.nativeLogits).toBe(true);
        expect(reference.nativeLogits).toBe(false);
        for (const rawPrompt of [
          'Once upon a time',
          'The cat sat on the mat.',
          'Tom and Sue went to the shop.',
        ]) {
          const request = { messages: [], rawPrompt, maxTokens: 48, logprobs: true, topLogprobs: 5 };
          const got = await fast.generate(request);
          const want = await reference.generate(request);
          expect(got.text).toBe(want.text);
          // The routes round differently: equal bits on every token would mean one route ran twice.
          expect(got.tokens?.some((t, i) => t.logprob !== want.tokens?.[i]?.logprob)).toBe(true);
          expect(got.tokens).toHaveLength(want.tokens?.length as number);
          for (const [i, entry] of (got.tokens as TokenLogprob[]).entries()) {
            const other = want.tokens?.[i] as TokenLogprob;
            expect(entry.token, `${rawPrompt} #${i}`).toBe(other.token);
            expect(Math.abs(entry.logprob - other.logprob), `${rawPrompt} #${i}`).toBeLessThan(1e-5);
            expect(Math.abs((entry.entropy as number) - (other.entropy as number))).toBeLessThan(1e-5);
            expect(entry.top?.map((t) => t.token)).toEqual(other.top?.map((t) => t.token));
            for (const [k, t] of (entry.top ?? []).entries())
              expect(Math.abs(t.logprob - (other.top?.[k]?.logprob as number))).toBeLessThan(1e-5);
          }
        }
      });

      it('score a continuation (teacher forcing) as the public route does, within 1e-5 a token', async () => {
        const pairs: [string, string][] = [
          ['Once upon a time', ', there was a little girl named Lily. She loved to play.'],
          ['The cat sat on the mat.', ' The dog ran to the park and found a big red ball.'],
        ];
        for (const [rawPrompt, continuation] of pairs) {
          const request = { messages: [{ role: 'user' as const, content: rawPrompt }], continuation };
          const got = await fast.score(request);
          const want = await reference.score(request);
          expect(got.tokens.map((t) => t.token)).toEqual(want.tokens.map((t) => t.token));
          expect(got.tokens.length).toBeGreaterThan(5);
          for (const [i, t] of got.tokens.entries()) {
            const other = want.tokens[i] as TokenLogprob;
            expect(Math.abs(t.logprob - other.logprob), `${rawPrompt} #${i}`).toBeLessThan(1e-5);
            expect(Math.abs((t.entropy as number) - (other.entropy as number))).toBeLessThan(1e-5);
          }
          expect(Math.abs(got.logprob - want.logprob)).toBeLessThan(1e-5 * got.tokens.length);
          // The routes round differently: equal bits on every token would mean one route ran twice.
          expect(got.tokens.some((t, i) => t.logprob !== want.tokens[i]?.logprob)).toBe(true);
        }
      });

      it('score an input longer than one batch through the public route, with the same numbers', async () => {
        const request = {
          messages: [{ role: 'user' as const, content: 'The cat sat on the mat. '.repeat(90) }],
          continuation: ' The dog ran.',
        };
        const prompt = fast.renderPrompt({ messages: request.messages }).tokens;
        expect(prompt.length).toBeGreaterThan(512); // node-llama-cpp's default batch
        expect(await fast.score(request)).toEqual(await reference.score(request));
      });

      it('stream the same entries as a plain generate, and sampled requests keep the public route', async () => {
        const request = {
          messages: [],
          rawPrompt: 'Lily had a red ball.',
          maxTokens: 24,
          logprobs: true,
          topLogprobs: 3,
        };
        const direct = await fast.generate(request);
        const streamed: TokenLogprob[] = [];
        for await (const event of fast.stream(request))
          if (event.type === 'delta') streamed.push(...event.tokens);
        expect(streamed).toEqual(direct.tokens);
        const sampled = { ...request, temperature: 0.9, seed: 3 };
        expect(await fast.generate(sampled)).toEqual(await reference.generate(sampled));
      });
    },
  );
}

describe.skipIf(patchedBuild)(
  `without the patched addon ${patchedBuild ? '(skipped: it is built here)' : ''}`,
  () => {
    const modelPath = sharedFile('models/stories260K.gguf');
    it.skipIf(!modelPath)('the provider reads log-probs through the public route', async () => {
      const provider = await createGgufProvider({ modelPath: modelPath as string, chatTemplate: 'raw' });
      try {
        expect(provider.nativeLogits).toBe(false);
        const r = await provider.generate({
          messages: [],
          rawPrompt: 'Once upon a time',
          maxTokens: 8,
          logprobs: true,
        });
        expect(r.tokens).toHaveLength(8);
      } finally {
        await provider.close();
      }
    });
  },
);
