import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Overwrites the root page of a store's table with noise, as a failing disk or a copy cut short
 * would: the header and the schema still read, so the store opens, and the first statement that
 * reads the table meets the damage. The file's bytes after.
 */
export function damageTable(store: string, table: string): Buffer {
  const db = new Database(store, { readonly: true });
  const root = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(table) as number;
  db.close();
  const bytes = readFileSync(store);
  const pageSize = bytes.readUInt16BE(16);
  const at = (root - 1) * pageSize;
  for (let i = 0; i < pageSize; i++) bytes[at + i] = (i * 131 + 7) % 256;
  writeFileSync(store, bytes);
  return bytes;
}
