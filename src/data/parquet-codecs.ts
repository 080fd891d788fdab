import * as zlib from 'node:zlib';
import { decompress as pureJsZstd } from 'fzstd';
import type { Compressors } from 'hyparquet';

/**
 * Decompressors for the Parquet codecs hyparquet leaves to its caller (it reads uncompressed and
 * snappy pages itself). GZIP and BROTLI come from node:zlib. ZSTD (polars' and pyarrow's default)
 * comes from node:zlib where Node has it (22.15+), else from the pure-JS `fzstd` package, so a zstd
 * file reads on Node 20 too (docs/datasets.md#fields, docs/decisions.md E32).
 */

type Decompress = (input: Uint8Array) => Uint8Array;
type ZstdZlib = { zstdDecompressSync?: (input: Uint8Array) => Buffer };

function zstdDecoder(): Decompress {
  const native = (zlib as ZstdZlib).zstdDecompressSync;
  return native ? (input) => native(input) : (input) => pureJsZstd(input);
}

export function parquetCompressors(): Compressors {
  const zstd = zstdDecoder();
  return {
    // Parquet's GZIP is RFC 1952; unzipSync also takes the zlib framing some writers use.
    GZIP: (input) => zlib.unzipSync(input),
    BROTLI: (input) => zlib.brotliDecompressSync(input),
    ZSTD: (input: Uint8Array) => zstd(input),
  };
}

/** What to say when a file uses a codec this reader lacks. */
export function codecAdvice(message: string): string {
  if (!/unsupported compression/.test(message)) return '';
  return ' (waver reads uncompressed, snappy, gzip, brotli and zstd Parquet; rewrite the file with one of them, or export it as JSONL)';
}
