/**
 * An error in what the user gave waver (config, suite, flags, model spec). The CLI prints it
 * as one line — `file:line: field: reason` — and exits non-zero before anything is written.
 * `message` is `field: reason`, so a library caller that only logs the message still learns
 * which field is wrong; `reason` is the bare text.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly file?: string;
  readonly line?: number;
  readonly field?: string;
  /** What is wrong, without the field's name. */
  readonly reason: string;

  constructor(reason: string, where: { file?: string; line?: number; field?: string } = {}) {
    super(where.field ? `${where.field}: ${reason}` : reason);
    this.reason = reason;
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
  }

  /** `file:line: field: reason`, leaving out the parts that are unknown. */
  format(): string {
    const loc = [this.file, this.line].filter((x) => x !== undefined).join(':');
    return [loc, this.message].filter(Boolean).join(': ');
  }
}
