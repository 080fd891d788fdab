import { spawnSync } from 'node:child_process';
import { decompress as pureJsZstd } from 'fzstd';
import { describe, expect, it } from 'vitest';
import { codecAdvice, parquetCompressors } from './parquet-codecs.js';

/** zstd frames as the zstd tool writes them (Node 20's zlib cannot write one). */
const zstdCli = spawnSync('zstd', ['--version']).status === 0;
const compress = (data: Uint8Array, level = 3) =>
  new Uint8Array(spawnSync('zstd', ['-q', '-c', `-${level}`], { input: data }).stdout);

// Text that compresses with Huffman literals and repeated matches, and bytes that do not compress.
const text = new TextEncoder().encode(
  Array.from({ length: 400 }, (_, i) => `row ${i}: What is ${i} + ${i * 7}? The answer is ${i * 8}.\n`).join(
    '',
  ),
);
const noise = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 2654435761) >>> 24);

describe('zstd pages', () => {
  it.skipIf(!zstdCli)('the pure-JS decoder (fzstd) reads frames the zstd tool wrote', () => {
    const decode = pureJsZstd;
    for (const level of [1, 3, 19]) expect(decode(compress(text, level))).toEqual(text);
    expect(decode(compress(noise))).toEqual(noise);
    expect(decode(compress(new Uint8Array(0)))).toEqual(new Uint8Array(0));
  });
  it.skipIf(zstdCli)('zstd pages: skipped, no zstd tool to write a test frame with', () => {});

  it.skipIf(!zstdCli)('Parquet reads ZSTD pages on this Node', () => {
    const zstd = parquetCompressors().ZSTD;
    expect(zstd?.(compress(text), text.length)).toEqual(text);
  });

  it('a codec it cannot read is named with what would read it', () => {
    expect(codecAdvice('parquet unsupported compression codec: LZO')).toMatch(/rewrite the file/);
    expect(codecAdvice('some other failure')).toBe('');
  });
});
