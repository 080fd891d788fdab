import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Llama, LlamaModel } from 'node-llama-cpp';
import { loadLlamaCpp } from './llama-cpp.js';

/**
 * One llama.cpp binding per process, created on first use. CPU only, a prebuilt binary (never a
 * build at run time), one thread: on a 2-core machine two threads per evaluation collapse throughput.
 */
let llamaPromise: Promise<Llama> | undefined;

export function getSharedLlama(): Promise<Llama> {
  llamaPromise ??= loadLlamaCpp()
    .then(({ getLlama, LlamaLogLevel }) =>
      getLlama({
        gpu: false,
        build: 'never',
        maxThreads: 1,
        // llama.cpp prints harmless load-time warnings for many GGUFs; keep stdout/stderr for waver's own output.
        logLevel: LlamaLogLevel.error,
      }),
    )
    .catch((error: unknown) => {
      llamaPromise = undefined;
      throw error;
    });
  return llamaPromise;
}

interface CachedModel {
  model: Promise<LlamaModel>;
  users: number;
}

/** Loaded models by absolute path, shared by every provider on the same file and freed with the last one. */
const models = new Map<string, CachedModel>();

export interface ModelLease {
  model: LlamaModel;
  /** Drops this user's hold; the model is disposed when no provider holds it any more. */
  release(): Promise<void>;
}

export async function acquireModel(modelPath: string): Promise<ModelLease> {
  const key = resolve(modelPath);
  let entry = models.get(key);
  if (!entry) {
    const model = getSharedLlama().then((llama) => llama.loadModel({ modelPath: key }));
    entry = { model, users: 0 };
    models.set(key, entry);
    // A failed load must not poison the cache for the next try.
    model.catch(() => {
      if (models.get(key) === entry) models.delete(key);
    });
  }
  entry.users += 1;
  const held = entry;
  let model: LlamaModel;
  try {
    model = await held.model;
  } catch (error) {
    held.users -= 1;
    throw error;
  }
  let released = false;
  return {
    model,
    async release() {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users === 0 && models.get(key) === held) {
        models.delete(key);
        await model.dispose();
      }
    },
  };
}

const FINGERPRINT_CHUNK = 1024 * 1024;
const fingerprints = new Map<string, Promise<string>>();

/**
 * A short content hash of a model file for cache identities, so two files with the same name differ.
 * It hashes the size plus the first and last MiB, not the whole file: hashing a multi-GB GGUF on
 * every process start would take seconds. The header (architecture, hyper-parameters, most of the
 * vocabulary) and the tail tensors differ between any two real models or quantisations.
 * Cached per (path, size, mtime) for the life of the process.
 */
export async function modelFingerprint(modelPath: string): Promise<string> {
  const path = resolve(modelPath);
  const info = await stat(path);
  const key = `${path}\0${info.size}\0${info.mtimeMs}`;
  let cached = fingerprints.get(key);
  if (!cached) {
    cached = hashEnds(path, info.size);
    fingerprints.set(key, cached);
    cached.catch(() => fingerprints.delete(key));
  }
  return cached;
}

async function hashEnds(path: string, size: number): Promise<string> {
  const hash = createHash('sha256').update(`size:${size}\n`);
  const file = await open(path, 'r');
  try {
    const headLength = Math.min(size, FINGERPRINT_CHUNK);
    const head = Buffer.alloc(headLength);
    await file.read(head, 0, headLength, 0);
    hash.update(head);
    const tailStart = Math.max(headLength, size - FINGERPRINT_CHUNK);
    if (tailStart < size) {
      const tail = Buffer.alloc(size - tailStart);
      await file.read(tail, 0, tail.length, tailStart);
      hash.update(tail);
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex').slice(0, 12);
}
