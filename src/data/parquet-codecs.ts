import { createRequire } from 'node:module';
import * as zlib from 'node:zlib';
import type { Compressors } from 'hyparquet';

/**
 * Decompressors for the Parquet codecs hyparquet leaves to its caller (it reads uncompressed and
 * snappy pages itself). GZIP and BROTLI come from node:zlib. ZSTD (polars' and pyarrow's default)
 * comes from node:zlib where Node has it (22.15+), else from the pure-JS `fzstd` package, so a zstd
 * file reads on Node 20 too (docs/datasets.md#fields, docs/decisions.md E32).
 */

type Decompress = (input: Uint8Array) => Uint8Array;
type ZstdZlib = { zstdDecompressSync?: (input: Uint8Array) => Buffer };

let pure: Decompress | null | undefined;

/**
 * fzstd's decoder; undefined where the package is not installed. Loaded by `require` on first use,
 * so a checkout whose node_modules predate the dependency still builds and names what is missing.
 */
export function pureJsZstd(): Decompress | undefined {
  if (pure === undefined) {
    try {
      pure = (createRequire(import.meta.url)('fzstd') as { decompress: Decompress }).decompress;
    } catch {
      pure = null;
    }
  }
  return pure ?? undefined;
}

function zstdDecoder(): Decompress | undefined {
  const native = (zlib as ZstdZlib).zstdDecompressSync;
  return native ? (input) => native(input) : pureJsZstd();
}

/** Whether zstd pages can be read here (Node 22.15+, or fzstd installed). */
export function canReadZstd(): boolean {
  return zstdDecoder() !== undefined;
}

export function parquetCompressors(): Compressors {
  const zstd = zstdDecoder();
  return {
    // Parquet's GZIP is RFC 1952; unzipSync also takes the zlib framing some writers use.
    GZIP: (input) => zlib.unzipSync(input),
    BROTLI: (input) => zlib.brotliDecompressSync(input),
    ...(zstd && { ZSTD: (input: Uint8Array) => zstd(input) }),
  };
}

/** What to say when a file uses a codec this reader lacks. */
export function codecAdvice(message: string): string {
  if (!/unsupported compression/.test(message)) return '';
  if (/ZSTD/.test(message))
    return ` (zstd Parquet needs Node 22.15 or later, or the fzstd package, which waver depends on: reinstall waver's dependencies; this is Node ${process.versions.node}. Or rewrite the file with snappy or gzip, or export it as JSONL)`;
  return ' (waver reads uncompressed, snappy, gzip, brotli and zstd Parquet; rewrite the file with one of them, or export it as JSONL)';
}
