import { cleanText, type OpenPrompt, parseJsonl, readDataFile, stringField } from './open-prompt.js';

/** The 3,000-question TriviaQA subsample from llm-foundry. Path relative to the data directory. */
export const TRIVIAQA_FILE = 'triviaqa/triviaqa_sm_sub.jsonl';

/**
 * `{context: "Question: ...\nAnswer:", answer, aliases}` per line; the bare question is kept, the
 * answer as its reference and the aliases beside it. Id: `trivia-<line>`.
 */
export function loadTriviaQa(path: string, label = TRIVIAQA_FILE): OpenPrompt[] {
  const text = readDataFile(path, 'triviaqa');
  return parseJsonl(text, path).flatMap(({ line, value }) => {
    const context = stringField(value, 'context', { file: path, line });
    const question = cleanText(context.replace(/^\s*Question:\s*/, '').replace(/\s*Answer:\s*$/, ''));
    if (question === '') return [];
    const answer = (value as { answer?: unknown }).answer;
    const raw = (value as { aliases?: unknown }).aliases;
    const aliases = Array.isArray(raw) ? raw.filter((a): a is string => typeof a === 'string') : [];
    return [
      {
        id: `trivia-${line}`,
        dataset: 'triviaqa',
        text: question,
        ...(typeof answer === 'string' ? { references: [answer] } : {}),
        ...(aliases.length > 0 && { aliases }),
        source: { file: label, line },
      },
    ];
  });
}
