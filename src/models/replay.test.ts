import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { ProviderError } from './errors.js';
import { createReplayProvider, recordingLine, requestKey } from './replay.js';
import type { GenerateRequest, GenerateResult } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'waver-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(lines: string[]): string {
  const path = join(dir, `rec-${n++}.jsonl`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const q1: GenerateRequest = { messages: [{ role: 'user', content: 'What is 2+2?' }], temperature: 0 };
const a1: GenerateResult = { text: '4', finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 1 } };
const q2: GenerateRequest = { messages: [{ role: 'user', content: 'Capital of France?' }], maxTokens: 8 };
const a2: GenerateResult = {
  text: 'Paris',
  finishReason: 'stop',
  usage: { inputTokens: 4, outputTokens: 1 },
  tokens: [{ token: 'Paris', logprob: -0.01, top: [{ token: 'Paris', logprob: -0.01 }] }],
};

function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('expected an InputError');
}

describe('replay provider', () => {
  it('answers recorded requests, whatever their key order', async () => {
    const p = createReplayProvider({ file: file([recordingLine(q1, a1, 'gpt-x'), recordingLine(q2, a2)]) });
    expect(await p.generate(q1)).toEqual(a1);
    // Same request, keys in another order and an undefined member: the same recording.
    const reordered = {
      temperature: 0,
      seed: undefined,
      messages: [{ content: 'What is 2+2?', role: 'user' as const }],
    };
    expect(await p.generate(reordered)).toEqual(a1);
    expect(await p.generate(q2)).toEqual(a2);
  });

  it('returns copies, so a caller cannot change later answers', async () => {
    const p = createReplayProvider({ file: file([recordingLine(q1, a1)]) });
    const first = await p.generate(q1);
    first.text = 'changed';
    expect((await p.generate(q1)).text).toBe('4');
  });

  it('an unrecorded request is a no_recording error naming its key and last user message', async () => {
    const p = createReplayProvider({ file: file([recordingLine(q1, a1)]) });
    const long = `Tell me ${'a very long story '.repeat(10)}`;
    const q: GenerateRequest = {
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: long },
      ],
    };
    const err = await p.generate(q).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe('no_recording');
    expect((err as ProviderError).retryable).toBe(false);
    const message = (err as ProviderError).message;
    expect(message).toContain(requestKey(q));
    expect(message).toContain(long.slice(0, 80));
    expect(message).not.toContain(long.slice(0, 120));
    // A differing parameter is a different request.
    await expect(p.generate({ ...q1, temperature: 0.5 })).rejects.toMatchObject({ kind: 'no_recording' });
  });

  it('identity is the content hash: a changed recording is a different model', () => {
    const a = createReplayProvider({ file: file([recordingLine(q1, a1)]) });
    const same = createReplayProvider({ file: file([recordingLine(q1, a1)]) });
    const changed = createReplayProvider({ file: file([recordingLine(q1, { ...a1, text: 'four' })]) });
    expect(a.identity).toMatch(/^replay:[0-9a-f]{16}$/);
    expect(same.identity).toBe(a.identity);
    expect(changed.identity).not.toBe(a.identity);
  });

  it('declares log-probs only when every recorded response carries them', () => {
    const mixed = createReplayProvider({ file: file([recordingLine(q1, a1), recordingLine(q2, a2)]) });
    expect(mixed.capabilities).toMatchObject({ chat: true, tokenLogprobs: false, topLogprobs: 0 });
    const withTokens = createReplayProvider({ file: file([recordingLine(q2, a2)]) });
    expect(withTokens.capabilities).toMatchObject({
      chat: true,
      tokenLogprobs: true,
      topLogprobs: 1,
      fullDistribution: false,
      embeddings: false,
    });
  });

  it('bad JSONL is an InputError naming file, line and field', () => {
    const badJson = file([recordingLine(q1, a1), '{not json']);
    const e1 = inputError(() => createReplayProvider({ file: badJson }));
    expect(e1).toMatchObject({ file: badJson, line: 2 });
    expect(e1.format()).toContain(`${badJson}:2`);

    const noText = JSON.stringify({ key: requestKey(q1), request: q1, response: { ...a1, text: undefined } });
    const e2 = inputError(() => createReplayProvider({ file: file(['', noText]) }));
    expect(e2).toMatchObject({ line: 2, field: 'response.text' });

    const badRole = JSON.stringify({
      key: requestKey(q1),
      request: { messages: [{ role: 'robot', content: 'x' }] },
      response: a1,
    });
    expect(inputError(() => createReplayProvider({ file: file([badRole]) }))).toMatchObject({
      line: 1,
      field: 'request.messages.0.role',
    });

    const wrongKey = JSON.stringify({ key: requestKey(q2), request: q1, response: a1 });
    const e4 = inputError(() => createReplayProvider({ file: file([wrongKey]) }));
    expect(e4).toMatchObject({ line: 1, field: 'key' });
    expect(e4.message).toContain(requestKey(q1));

    const conflict = file([recordingLine(q1, a1), recordingLine(q1, { ...a1, text: '5' })]);
    expect(inputError(() => createReplayProvider({ file: conflict }))).toMatchObject({
      line: 2,
      field: 'response',
    });

    expect(inputError(() => createReplayProvider({ file: join(dir, 'missing.jsonl') })).message).toMatch(
      /no such file/,
    );
    expect(inputError(() => createReplayProvider({ file: file(['']) })).message).toMatch(/no responses/);
  });
});
