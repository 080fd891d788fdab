import { parseRuleFlag } from '../../check/thresholds.js';
import type { CheckProtocol, ThresholdDef, ThresholdRule } from '../../check/types.js';
import { InputError } from '../../errors.js';

/** One of a protocol's thresholds, by metric. */
export function thresholdDef<R>(protocol: CheckProtocol<R>, metric: string): ThresholdDef<R> {
  const def = protocol.thresholds.find((t) => t.metric === metric);
  if (!def) throw new Error(`${protocol.protocol} has no threshold ${metric}`);
  return def;
}

/** The rules `--<metric> <values...>` gives, as `waver check` parses them. */
export function flagRules(protocol: CheckProtocol, metric: string, ...values: string[]): ThresholdRule[] {
  return parseRuleFlag(thresholdDef(protocol, metric), values);
}

/** `field: message` of the InputError `f` throws. */
export function inputError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return e.message;
  }
  throw new Error('no error');
}
