/**
 * The fetch a provider, the Hub's client or a test's loopback takes (Node's own by default): one
 * type for the folders that call HTTP, so the Hub's client needs nothing of the providers'.
 */
export type FetchFn = typeof globalThis.fetch;
