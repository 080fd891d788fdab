import * as zlib from 'node:zlib';
import type { Compressors } from 'hyparquet';

/**
 * Decompressors for the Parquet codecs hyparquet leaves to its caller (it reads uncompressed and
 * snappy pages itself). GZIP and BROTLI come from node:zlib.
 * ZSTD (polars' and pyarrow's current default) is in node:zlib from Node 22.15 on; on an older
 * Node a zstd file is refused with a message saying so (docs/datasets.md#formats).
 */

type ZstdZlib = { zstdDecompressSync?: (input: Uint8Array) => Buffer };

/** Whether this Node can read zstd pages. */
export function canReadZstd(): boolean {
  return typeof (zlib as ZstdZlib).zstdDecompressSync === 'function';
}

export function parquetCompressors(): Compressors {
  const zstd = (zlib as ZstdZlib).zstdDecompressSync;
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
    return ` (zstd Parquet needs Node 22.15 or later; this is Node ${process.versions.node}: rewrite the file with snappy or gzip, or export it as JSONL)`;
  return ' (waver reads uncompressed, snappy, gzip, brotli and, on Node 22.15+, zstd Parquet; rewrite the file with one of them, or export it as JSONL)';
}
