import { auxPut } from '../../../run/aux-cache.js';
import type { Suite } from '../../../run/types.js';
import type { CellWrite, Store } from '../../../store/store.js';
import { hashOf } from '../../../util/hash.js';
import { WAVER_VERSION } from '../../../version.js';
import {
  type ImportedTest,
  type ImportRecord,
  type ImportSource,
  importRecordRequest,
  importSlot,
} from './recorded.js';

/** One (variant, item, repeat) answer of one model as the harness recorded it. */
export interface ImportedCellPlan {
  testId: string;
  repeat: number;
  /** `failed`: the harness recorded an error instead of an answer (kept and counted, never dropped). */
  status: 'done' | 'failed';
  /** What the model answered (the chosen option, the output), or the error's message. */
  text: string;
  correct: boolean;
  /** The answer compared across repeats and variants. */
  answer: string;
  file: string;
  /** The line (lm-eval's samples file) or the result's index (promptfoo's results list). */
  line: number;
}

export interface ImportedModelPlan {
  label: string;
  identity: string;
  source: ImportSource;
  metric: string;
  /** What the run record keeps of where the answers came from (files, the harness's settings). */
  provenance: Record<string, unknown>;
  cells: ImportedCellPlan[];
}

export interface ImportedSuitePlan {
  suite: Suite<ImportedTest>;
  models: ImportedModelPlan[];
}

export interface ImportedSuite {
  suiteHash: string;
  variants: string[];
  items: number;
  models: { label: string; identity: string; cells: number; failed: number }[];
}

/**
 * Writes every planned suite, its models' cells and recorded verdicts in one transaction: all of
 * it or, on any error, nothing. Everything was read and checked before (the plan).
 */
export function writeImport(store: Store, plans: readonly ImportedSuitePlan[]): ImportedSuite[] {
  return store.transaction(() =>
    plans.map((p) => {
      store.suites.save(p.suite);
      const prompts = new Map(p.suite.tests.map((t) => [t.id, t.prompt]));
      for (const m of p.models) {
        const runId = store.runs.begin({
          suiteHash: p.suite.hash,
          config: { import: m.source, models: [m.label], metric: m.metric, ...m.provenance },
          waverVersion: WAVER_VERSION,
        });
        store.cells.write(
          m.cells.map((c) => cellWrite(p.suite.hash, m, runId, c, prompts.get(c.testId) ?? '')),
        );
        const record: ImportRecord = {
          imported: true,
          source: m.source,
          metric: m.metric,
          cells: Object.fromEntries(
            m.cells
              .filter((c) => c.status === 'done')
              .map((c) => [
                importSlot(c.testId, c.repeat),
                { correct: c.correct, answer: c.answer, file: c.file, line: c.line },
              ]),
          ),
        };
        auxPut(store, 'measure', m.identity, importRecordRequest(p.suite.hash, m.identity), record);
        store.runs.finish(runId, 'complete');
      }
      return {
        suiteHash: p.suite.hash,
        variants: [...new Set(p.suite.tests.map((t) => t.meta.variant))],
        items: new Set(p.suite.tests.map((t) => t.meta.item)).size,
        models: p.models.map((m) => ({
          label: m.label,
          identity: m.identity,
          cells: m.cells.length,
          failed: m.cells.filter((c) => c.status === 'failed').length,
        })),
      };
    }),
  );
}

function cellWrite(
  suiteHash: string,
  m: ImportedModelPlan,
  runId: string,
  c: ImportedCellPlan,
  prompt: string,
): CellWrite {
  const ref = {
    suiteHash,
    testId: c.testId,
    model: m.label,
    modelIdentity: m.identity,
    repeat: c.repeat,
    runId,
    request: { messages: [{ role: 'user' as const, content: prompt }] },
    attempts: [],
  };
  if (c.status === 'failed')
    return {
      kind: 'failed',
      cell: { ...ref, error: { kind: 'server', message: `${m.source} recorded an error: ${c.text}` } },
    };
  return {
    kind: 'done',
    cell: {
      ...ref,
      key: hashOf({ source: m.source, identity: m.identity, suiteHash, testId: c.testId, repeat: c.repeat }),
      result: { text: c.text, finishReason: 'other', usage: { inputTokens: 0, outputTokens: 0 } },
    },
  };
}
