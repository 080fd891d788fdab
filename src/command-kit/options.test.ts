import { describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../test-support/cli/cli.js';

describe('--help', () => {
  it('shows the defaults and examples', async () => {
    assertBuilt();
    const r = await runCli(['paraphrase', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--max-tokens <n>\s+output token cap per call \(default: 256\)/);
    expect(r.stdout).toMatch(/--concurrency <n>\s+parallel calls per model \(default: 4\)/);
    expect(r.stdout).toContain('Examples:\n  # the built-in items, a quick run\n  $ waver paraphrase');
    const ladder = await runCli(['ladder', '--help']);
    expect(ladder.stdout).toMatch(/--max-tokens <n>\s+output token cap per call \(default: 768,\s+900/);
    expect((await runCli(['report', '--help'])).stdout).toContain('$ waver report\n');
  });
});
