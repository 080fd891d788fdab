import type { z } from 'zod';
import type { Suite, SuiteTest } from '../run/types.js';

/** A test with its meta read: what a protocol's code works with. */
export interface TypedTest<Meta> extends SuiteTest<Meta> {
  meta: Meta;
}

/**
 * The tests of a stored suite with their meta read through the protocol's schema, once, where the
 * suite comes out of the store (a stored suite's meta is JSON of unknown shape until then). A test
 * whose meta does not fit is an error naming the suite, the test and the field: the suite is not
 * one this protocol wrote.
 */
export function typedTests<Meta>(suite: Suite, schema: z.ZodType<Meta>): TypedTest<Meta>[] {
  return suite.tests.map((test) => ({ ...test, meta: typedMeta(suite, test, schema) }));
}

/** One test's meta read through the schema (see typedTests). */
export function typedMeta<Meta>(
  suite: Pick<Suite, 'name' | 'hash'>,
  test: SuiteTest,
  schema: z.ZodType<Meta>,
): Meta {
  const parsed = schema.safeParse(test.meta ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = ['meta', ...(issue?.path ?? []).map(String)].join('.');
  throw new Error(
    `test ${test.id} of suite ${suite.name} (${suite.hash.slice(0, 12)}) is not one the protocol wrote (${field}: ${issue?.message ?? 'unexpected'})`,
  );
}
