import type { BatchApi } from '../../models/types.js';

/** A model whose cells go through its provider's batch API. */
export interface BatchLane {
  label: string;
  identity: string;
  api: BatchApi;
}
