/** Keys that name a secret: dropped from stored configs, refused in exports. */
export const SECRET_KEY =
  /^(api[-_]?key|apikey|secret|client[-_]?secret|password|authorization|x-api-key|bearer|(access|auth|api)[-_]?token)$/i;

/** A copy of `value` without members whose key names a secret. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!SECRET_KEY.test(k)) out[k] = withoutSecrets(v);
    return out;
  }
  return value;
}

/** Throws when `value` has a member whose key names a secret. */
export function assertNoSecrets(value: unknown, where = 'value'): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      assertNoSecrets(v, `${where}[${i}]`);
    });
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEY.test(k)) throw new Error(`refusing to write a secret: ${where}.${k}`);
      assertNoSecrets(v, `${where}.${k}`);
    }
  }
}

/**
 * Removes secrets from text that may reach a store, log or report. Besides the exact key, APIs
 * echo partial keys ("Incorrect API key provided: sk-abc***xyz"), so key-like tokens go too.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_*.-]{6,}/g, '$1-[redacted]')
    .replace(/\b(Bearer|x-api-key:?)\s+[^\s"',]+/gi, '$1 [redacted]');
}
