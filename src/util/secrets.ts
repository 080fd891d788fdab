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
