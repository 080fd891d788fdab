/**
 * A section's results that do not exist yet because their run has not reached the step that makes
 * them (a SAGO run writes its manifest last): the report says so in the protocol's words, as news
 * of a run in progress, not as a failure to rebuild (issue 37.8).
 */
export class ResultsPending extends Error {
  override name = 'ResultsPending';
}
