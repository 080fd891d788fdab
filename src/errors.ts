/**
 * An error in what the user gave waver (config, suite, flags, model spec). The CLI prints it
 * as one line — `file:line: field: message` — and exits non-zero before anything is written.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly file?: string;
  readonly line?: number;
  readonly field?: string;

  constructor(message: string, where: { file?: string; line?: number; field?: string } = {}) {
    super(message);
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
  }

  /** `file:line: field: message`, leaving out the parts that are unknown. */
  format(): string {
    const loc = [this.file, this.line].filter((x) => x !== undefined).join(':');
    return [loc, this.field, this.message].filter(Boolean).join(': ');
  }
}
