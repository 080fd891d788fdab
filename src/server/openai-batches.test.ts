import { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { servedTinyModel } from '../test-support/served-tiny-model.js';
import { tinyModelMissing } from '../test-support/shared.js';

/**
 * waver serve's Files and Batch API over the real tiny model, driven by the official openai SDK:
 * the same JSONL as vLLM's run_batch input, one output line per custom_id.
 */
describe.skipIf(tinyModelMissing)(
  `waver serve's batch API over the tiny model ${tinyModelMissing ?? ''}`,
  () => {
    const tiny = servedTinyModel();

    const line = (customId: string, body: Record<string, unknown>, url = '/v1/chat/completions') =>
      JSON.stringify({ custom_id: customId, method: 'POST', url, body });

    async function upload(lines: string[]) {
      return tiny.client.files.create({
        file: await toFile(Buffer.from(`${lines.join('\n')}\n`), 'input.jsonl'),
        purpose: 'batch',
      });
    }

    async function finished(id: string) {
      for (;;) {
        const b = await tiny.client.batches.retrieve(id);
        if (!['validating', 'in_progress', 'finalizing', 'cancelling'].includes(b.status)) return b;
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    /** A file's lines as loosely typed JSON: the tests check their shape field by field. */
    // biome-ignore lint/suspicious/noExplicitAny: output lines under test
    async function lines(fileId: string | null | undefined): Promise<any[]> {
      if (!fileId) return [];
      const text = await (await tiny.client.files.content(fileId)).text();
      return text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    }

    it('answers every custom_id once, as the chat route answers the same request', async () => {
      const prompts = ['Once upon a time', 'The cat sat', 'Lily went to', 'A big dog'];
      const file = await upload(
        prompts.map((p, i) =>
          line(`req-${i}`, { model: 'tiny', messages: [{ role: 'user', content: p }], max_tokens: 8 }),
        ),
      );
      expect(file).toMatchObject({ object: 'file', purpose: 'batch', filename: 'input.jsonl' });
      expect((await tiny.client.files.retrieve(file.id)).bytes).toBe(file.bytes);
      const created = await tiny.client.batches.create({
        input_file_id: file.id,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
      });
      const batch = await finished(created.id);
      expect(batch.status).toBe('completed');
      expect(batch.request_counts).toEqual({ total: 4, completed: 4, failed: 0 });
      expect(batch.error_file_id).toBeNull();
      const out = await lines(batch.output_file_id);
      expect(out.map((o) => o.custom_id).sort()).toEqual(['req-0', 'req-1', 'req-2', 'req-3']);
      const direct = await tiny.client.chat.completions.create({
        model: 'tiny',
        messages: [{ role: 'user', content: prompts[2] as string }],
        max_tokens: 8,
      });
      const third = out.find((o) => o.custom_id === 'req-2');
      expect(third.response.status_code).toBe(200);
      expect(third.error).toBeNull();
      expect(third.response.body.choices[0].message.content).toBe(direct.choices[0]?.message.content);
      expect(third.response.body.usage.completion_tokens).toBe(8);
      const listed = await tiny.client.batches.list();
      expect(listed.data.map((b) => b.id)).toContain(created.id);
    }, 60_000);

    it('a request the route refuses is a line of the error file; the others are answered', async () => {
      const file = await upload([
        line('ok', { messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4 }),
        line('bad', { messages: [], max_tokens: 4 }),
      ]);
      const batch = await finished(
        (
          await tiny.client.batches.create({
            input_file_id: file.id,
            endpoint: '/v1/chat/completions',
            completion_window: '24h',
          })
        ).id,
      );
      expect(batch.status).toBe('completed');
      expect(batch.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
      expect((await lines(batch.output_file_id)).map((o) => o.custom_id)).toEqual(['ok']);
      const [bad] = await lines(batch.error_file_id);
      expect(bad.custom_id).toBe('bad');
      expect(bad.response.status_code).toBe(400);
      expect(bad.response.body.error.message).toMatch(/messages/);
    }, 60_000);

    it('an input file with a duplicate custom_id or a wrong url fails the batch with the lines named', async () => {
      const file = await upload([
        line('a', { messages: [{ role: 'user', content: 'Hi' }] }),
        line('a', { messages: [{ role: 'user', content: 'Hi' }] }),
        line('b', { prompt: 'Hi' }, '/v1/completions'),
      ]);
      const batch = await tiny.client.batches.create({
        input_file_id: file.id,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
      });
      expect(batch.status).toBe('failed');
      expect(batch.errors?.data?.map((e) => [e.line, e.code])).toEqual([
        [2, 'duplicate_custom_id'],
        [3, 'mismatched_endpoint'],
      ]);
    });

    it('refuses another purpose, an unknown file and an unknown batch', async () => {
      await expect(
        tiny.client.files.create({
          file: await toFile(Buffer.from('{}\n'), 'x.jsonl'),
          purpose: 'fine-tune',
        }),
      ).rejects.toMatchObject({ status: 400 });
      await expect(tiny.client.files.retrieve('file-nope')).rejects.toMatchObject({ status: 404 });
      await expect(tiny.client.batches.retrieve('batch_nope')).rejects.toMatchObject({ status: 404 });
      await expect(
        tiny.client.batches.create({
          input_file_id: 'file-nope',
          endpoint: '/v1/chat/completions',
          completion_window: '24h',
        }),
      ).rejects.toMatchObject({ status: 404 });
    });

    it('a cancelled batch ends cancelled with the requests answered before it', async () => {
      const file = await upload(
        Array.from({ length: 40 }, (_, i) =>
          line(`c${i}`, { messages: [{ role: 'user', content: `Story ${i}` }], max_tokens: 64 }),
        ),
      );
      const created = await tiny.client.batches.create({
        input_file_id: file.id,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
      });
      const cancelling = await tiny.client.batches.cancel(created.id);
      expect(['cancelling', 'cancelled']).toContain(cancelling.status);
      const batch = await finished(created.id);
      expect(batch.status).toBe('cancelled');
      const out = await lines(batch.output_file_id);
      expect(out.length).toBe(batch.request_counts?.completed);
      expect(out.length).toBeLessThan(40);
    }, 60_000);

    it('files.list pages by limit and after, so auto-pagination yields each file once', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await upload([line(`p${i}`, { prompt: 'x' }, '/v1/completions')])).id);
      const first = await tiny.client.files.list({ limit: 2 });
      expect(first.data.length).toBe(2);
      expect(first.has_more).toBe(true);
      const seen: string[] = [];
      for await (const f of tiny.client.files.list({ limit: 1 })) seen.push(f.id);
      expect(new Set(seen).size).toBe(seen.length);
      // Newest first, as OpenAI lists them; every file of this server (earlier tests' too) once.
      expect(seen.slice(0, 3)).toEqual([...ids].reverse());
      const all = await tiny.client.files.list();
      expect(seen).toEqual(all.data.map((f) => f.id));
      expect(all.has_more).toBe(false);
      await expect(tiny.client.files.list({ limit: 0 })).rejects.toMatchObject({
        status: 400,
        error: { param: 'limit' },
      });
      const batches: string[] = [];
      for await (const b of tiny.client.batches.list({ limit: 1 })) batches.push(b.id);
      expect(new Set(batches).size).toBe(batches.length);
      expect(batches.length).toBeGreaterThan(1);
    });

    it('files.delete frees a file: gone from the list, 404 after', async () => {
      const f = await upload([line('d', { prompt: 'x' }, '/v1/completions')]);
      expect(await tiny.client.files.delete(f.id)).toEqual({ id: f.id, object: 'file', deleted: true });
      await expect(tiny.client.files.retrieve(f.id)).rejects.toMatchObject({ status: 404 });
      await expect(tiny.client.files.delete(f.id)).rejects.toMatchObject({ status: 404 });
      const left = await tiny.client.files.list();
      expect(left.data.map((x) => x.id)).not.toContain(f.id);
    });

    it('a file uploaded with expires_after carries its expiry; a bad one is refused naming it', async () => {
      const f = await tiny.client.files.create({
        file: await toFile(Buffer.from(`${line('e', { prompt: 'x' }, '/v1/completions')}\n`), 'e.jsonl'),
        purpose: 'batch',
        expires_after: { anchor: 'created_at', seconds: 3600 },
      });
      expect(f.expires_at).toBe(f.created_at + 3600);
      await expect(
        tiny.client.files.create({
          file: await toFile(Buffer.from('{}\n'), 'e.jsonl'),
          purpose: 'batch',
          expires_after: { anchor: 'created_at', seconds: 10 },
        }),
      ).rejects.toMatchObject({ status: 400, error: { param: 'expires_after.seconds' } });
    });
  },
);

describe.skipIf(tinyModelMissing)(`waver serve's batch files expire ${tinyModelMissing ?? ''}`, () => {
  const tiny = servedTinyModel(256, { fileTtlSeconds: 2 });

  it('an input file and the output of a batch are deleted once their life is over', async () => {
    const input = await tiny.client.files.create({
      file: await toFile(
        Buffer.from(
          `${JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/completions', body: { prompt: 'Once', max_tokens: 2 } })}\n`,
        ),
        'in.jsonl',
      ),
      purpose: 'batch',
    });
    expect(input.expires_at).toBe(input.created_at + 2);
    const created = await tiny.client.batches.create({
      input_file_id: input.id,
      endpoint: '/v1/completions',
      completion_window: '24h',
    });
    let batch = created;
    while (batch.status !== 'completed') {
      await new Promise((r) => setTimeout(r, 20));
      batch = await tiny.client.batches.retrieve(created.id);
    }
    const output = await tiny.client.files.retrieve(batch.output_file_id as string);
    expect(output.purpose).toBe('batch_output');
    await new Promise((r) => setTimeout(r, 2100));
    await expect(tiny.client.files.retrieve(input.id)).rejects.toMatchObject({ status: 404 });
    await expect(tiny.client.files.retrieve(output.id)).rejects.toMatchObject({ status: 404 });
    expect((await tiny.client.files.list()).data).toEqual([]);
  }, 30_000);
});
