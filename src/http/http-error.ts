/** An HTTP failure in OpenAI's error shape: `{error: {message, type, param, code}}`. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly type: string;
  readonly param: string | null;
  readonly code: string | null;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: string,
    opts: {
      type?: string;
      param?: string | null;
      code?: string | null;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.status = status;
    this.type = opts.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
    this.param = opts.param ?? null;
    this.code = opts.code ?? null;
    this.headers = opts.headers ?? {};
  }

  body(): { error: { message: string; type: string; param: string | null; code: string | null } } {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}
