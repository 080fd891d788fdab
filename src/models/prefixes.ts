/**
 * The model spec prefixes this process knows (`openai:` in `openai:gpt-4o-mini`): the built-in
 * providers', then each provider a library user registered (registry.ts). The spec parser reads
 * them, so an unknown prefix is refused where it is written, with its file and line.
 */

export const BUILTIN_PROVIDERS = ['openai', 'anthropic', 'gguf', 'replay'] as const;
export type BuiltinProviderName = (typeof BUILTIN_PROVIDERS)[number];

/** What a prefix may be: it ends at the first colon of a spec string. */
export const PREFIX_PATTERN = /^[a-z][a-z0-9-]*$/;

const registered = new Set<string>();

export function knownPrefixes(): string[] {
  return [...BUILTIN_PROVIDERS, ...registered];
}

export function isKnownPrefix(prefix: string): boolean {
  return (BUILTIN_PROVIDERS as readonly string[]).includes(prefix) || registered.has(prefix);
}

export function isBuiltinPrefix(prefix: string): prefix is BuiltinProviderName {
  return (BUILTIN_PROVIDERS as readonly string[]).includes(prefix);
}

/** Only registry.ts adds and removes: a prefix is known exactly while its factory is registered. */
export function addPrefix(prefix: string): void {
  registered.add(prefix);
}

export function removePrefix(prefix: string): void {
  registered.delete(prefix);
}
