/**
 * The JSON objects a reply holds, as the reference parsers look for them (docs/fidelity.md L8): the
 * whole reply when it is one object, then each flat `{...}` in it, in order. What does not parse, or
 * parses to something other than an object, is left out.
 */
export function jsonObjects(reply: string): Record<string, unknown>[] {
  const trimmed = reply.trim();
  return objectsOf([trimmed, ...flatObjectTexts(trimmed)]);
}

/** Each flat `{...}` of a reply that parses to an object, in order (a judge's verdict is the last). */
export function flatJsonObjects(reply: string): Record<string, unknown>[] {
  return objectsOf(flatObjectTexts(reply));
}

function objectsOf(candidates: readonly string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const candidate of candidates) {
    const value = parsedObject(candidate);
    if (value) out.push(value);
  }
  return out;
}

function flatObjectTexts(text: string): string[] {
  return text.match(/\{[^{}]*\}/g) ?? [];
}

function parsedObject(candidate: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(candidate);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
