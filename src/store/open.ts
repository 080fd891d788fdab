import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { InputError } from '../errors.js';
import { storeNotFound } from './not-found.js';
import { applyMigrations, foreignSchema } from './schema.js';

/**
 * Opening the store's connection, for writing or for reading, and saying in one line what is wrong
 * with a store that cannot be opened: bad input for the user to fix (a path, a permission, a
 * damaged or foreign file), never an internal error (docs/decisions.md#e8-exit-codes).
 */

/** A writer: the file and its directory are created, then WAL mode and the migrations. */
export function openWriter(path: string): Database.Database {
  return opening(path, 'write', () => {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    // SQLite opens a file it may not write read-only without a word: the first write would fail mid-run.
    if (path !== ':memory:' && existsSync(path) && !writable(path)) throw readOnly(path);
    const existed = path !== ':memory:' && existsSync(path);
    const db = new Database(path);
    try {
      // First: writers opening one store at once wait for each other's locks (switching to WAL too).
      db.pragma('busy_timeout = 5000');
      refuseForeign(db, path);
      if (existed && statSync(path).size <= CHECKED_BYTES) refuseDamaged(db, path);
      db.pragma('journal_mode = WAL');
      // NORMAL in WAL mode survives a killed process (only an OS crash can lose the last commits).
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      applyMigrations(db);
      return db;
    } catch (e) {
      db.close();
      throw e;
    }
  });
}

/**
 * How a reader checks the store page by page before reading it (`quick_check`): `sized` (the
 * default) a store of up to CHECKED_BYTES, as a writer does; `always` whatever its size (`waver
 * check`, which must never pass a damaged store); `never` (a reader a writer's checked open
 * follows at once). A damaged page met later is the store's failure all the same (storeFailure).
 */
export type ReaderCheck = 'sized' | 'always' | 'never';

/**
 * A reader, which leaves nothing behind. Where the file and its directory can be written, a
 * read-write connection with writes refused (query_only): SQLite's read-only connections cannot
 * checkpoint, so the last one to close would leave the -wal and -shm files behind. Where they
 * cannot, a read-only connection when a -wal is there to be read, else a copy of the file in
 * memory (a read-only connection would have to create the -shm, or could not read at all):
 * docs/decisions.md#e15-readers-leave-the-store-as-they-found-it. A damaged store is refused
 * before anything is read from it, as `check` says.
 */
export function openReader(path: string, check: ReaderCheck = 'sized'): Database.Database {
  return opening(path, 'read', () => {
    if (!existsSync(path)) throw storeNotFound(path);
    const db = writable(path)
      ? new Database(path, { fileMustExist: true })
      : existsSync(`${path}-wal`)
        ? new Database(path, { readonly: true, fileMustExist: true })
        : snapshot(path);
    try {
      db.pragma('query_only = ON');
      // A reader polls again soon: it waits for a lock less than a writer does.
      db.pragma('busy_timeout = 2000');
      refuseForeign(db, path);
      if (check === 'always' || (check === 'sized' && statSync(path).size <= CHECKED_BYTES))
        refuseDamaged(db, path);
      return db;
    } catch (e) {
      db.close();
      throw e;
    }
  });
}

/** The file as it is now, in memory; a WAL-mode header is marked rollback so SQLite opens it there. */
function snapshot(path: string): Database.Database {
  const bytes = readFileSync(path);
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return new Database(bytes, { readonly: true });
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    accessSync(dirname(path), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A SQLite file with tables that are not a waver store's is never migrated or written into. */
function refuseForeign(db: Database.Database, path: string): void {
  const why = foreignSchema(db);
  if (why)
    throw new InputError(`not a waver store (${why}); refusing to use it: name another --store`, {
      file: path,
    });
}

/**
 * Stores up to this size are checked page by page when opened (~0.25 s for the 96 MB of a
 * 25,748-cell report store); a larger one is refused at the first damaged page a read or a write
 * meets (docs/architecture.md), unless its reader asks for the check (`always`).
 */
const CHECKED_BYTES = 256 * 1024 * 1024;

/**
 * A damaged page is found before anything is written or read, not by the first statement that
 * reaches it: `quick_check` reads every page once. A reader that met it later would fail half-way
 * (a report half-written on stdout), or never meet it: `waver check` reads cell counts alone, and
 * passed a store whose cells could not be read.
 */
function refuseDamaged(db: Database.Database, path: string): void {
  const verdict = quickCheck(db).replace('*** in database main ***', '').trim().replaceAll('\n', '; ');
  if (verdict !== 'ok')
    throw new InputError(
      `the store is damaged (database disk image is malformed: ${verdict}); restore it from a copy`,
      {
        file: path,
      },
    );
}

/**
 * What SQLite says of a store it cannot write on (a full disk, a failing device, a damaged page
 * met mid-run), as one line naming the file: the transaction it was in is rolled back whole.
 */
export function storeFailure(e: unknown, path: string): InputError | undefined {
  if (!(e instanceof Database.SqliteError)) return undefined;
  const say = (message: string) => new InputError(`${message} (${e.message})`, { file: path });
  if (e.code === 'SQLITE_FULL')
    return say('disk full: the store cannot grow; free some space and run the same command again');
  if (e.code.startsWith('SQLITE_IOERR'))
    return say(
      'the store could not be written (a full disk, a file size limit or a failing device); the same command resumes',
    );
  if (e.code.startsWith('SQLITE_CORRUPT')) return say('the store is damaged; restore it from a copy');
  if (e.code.startsWith('SQLITE_BUSY'))
    return say(
      'the store stayed locked by another process past the busy timeout (a worker stopped inside a write?); the same command resumes once it is continued or ended',
    );
  return undefined;
}

function readOnly(path: string): InputError {
  return new InputError(
    'the store is read-only to this user (its file or directory cannot be written), and this command writes to it',
    { file: path },
  );
}

/** Runs `open`, turning what SQLite and the file system say about the path into one line naming it. */
function opening(path: string, mode: 'read' | 'write', open: () => Database.Database): Database.Database {
  try {
    return open();
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = String((e as { code?: unknown }).code ?? '');
    const raw = (e as Error).message;
    const say = (message: string) => new InputError(`${message} (${raw})`, { file: path });
    if (code === 'SQLITE_NOTADB') throw say('not a SQLite database, so not a waver store');
    const failure = storeFailure(e, path);
    if (failure) throw failure;
    if (code.startsWith('SQLITE_READONLY'))
      throw mode === 'write' ? readOnly(path) : say('the store cannot be read here');
    if (code.startsWith('SQLITE_BUSY')) throw say('the store is locked by another process');
    if (
      code.startsWith('SQLITE_CANTOPEN') ||
      ['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EISDIR'].includes(code)
    )
      throw say(
        existsSync(path)
          ? `cannot open the store for ${mode === 'write' ? 'writing' : 'reading'}`
          : 'cannot create the store: its directory cannot be written',
      );
    throw e;
  }
}

/**
 * `quick_check` through a memory map of the file: the same check, but its pages are read by one map
 * instead of a read call each (32 ms to 9 ms for the 5 MB of the bench's store). The map is dropped
 * at once, so every read and write after goes through SQLite's usual calls, where a failing device
 * is an error and not a signal (docs/decisions.md E84).
 */
function quickCheck(db: Database.Database): string {
  db.pragma(`mmap_size = ${CHECKED_BYTES}`);
  try {
    return String(db.pragma('quick_check(1)', { simple: true }));
  } finally {
    db.pragma('mmap_size = 0');
  }
}
