import { createHash } from 'node:crypto';
import type { ChatHistoryItem, LlamaModel, LlamaText, Token } from 'node-llama-cpp';
import { ProviderError } from './errors.js';
import { llamaCpp } from './llama-cpp.js';
import type { ChatMessage } from './types.js';

export type ChatTemplateSetting = 'auto' | 'model' | 'raw';

/**
 * How chat messages become the model's input. Nothing is ever added that the caller did not send:
 * no default system prompt, no role markers in `raw` mode. (A model's own Jinja template may itself
 * add text, such as a default system line; that is the model's documented format, used as is.)
 */
export interface PromptFormat {
  /** The mode actually used (`auto` resolved). */
  readonly mode: 'raw' | 'model';
  /** Short hash of the Jinja template in `model` mode: part of the provider identity. */
  readonly templateHash?: string;
  /** The prompt as LlamaText (special tokens kept apart from user text, so user text can never forge them). */
  render(messages: readonly ChatMessage[]): LlamaText;
  /** End-of-turn markers of the template that are not already end-of-generation tokens. */
  readonly stopTriggers: readonly LlamaText[];
}

/** The GGUF's own chat template (`tokenizer.chat_template`), when it has one. */
export function modelChatTemplate(model: LlamaModel): string | undefined {
  const template = model.fileInfo.metadata.tokenizer?.chat_template;
  return typeof template === 'string' && template.trim() !== '' ? template : undefined;
}

/** `template` defaults to the model's own; tests pass one to exercise the Jinja path on a template-less model. */
export function createPromptFormat(
  model: LlamaModel,
  setting: ChatTemplateSetting,
  modelName: string,
  template: string | undefined = modelChatTemplate(model),
): PromptFormat {
  if (setting === 'model' && !template) {
    throw new ProviderError(
      'client',
      `chatTemplate 'model' was asked for, but ${modelName} has no chat template (tokenizer.chat_template); use chatTemplate 'raw' or 'auto'`,
    );
  }
  if (setting === 'raw' || !template) return rawFormat;
  return jinjaFormat(model, template);
}

/** `raw`: the message contents joined by blank lines, nothing else. */
const rawFormat: PromptFormat = {
  mode: 'raw',
  render: (messages) => llamaCpp().LlamaText(messages.map((m) => m.content).join('\n\n')),
  stopTriggers: [],
};

function jinjaFormat(model: LlamaModel, template: string): PromptFormat {
  const wrapper = new (llamaCpp().JinjaTemplateChatWrapper)({
    template,
    // null leaves the template's own default (e.g. enable_thinking) instead of forcing reasoning on.
    reasoning: null,
    // Keep assistant turns byte for byte as the caller sent them.
    trimLeadingWhitespaceInResponses: false,
    tokenizer: model.tokenizer,
  });
  const render = (messages: readonly ChatMessage[]) => {
    const history: ChatHistoryItem[] = messages.map((m) =>
      m.role === 'system'
        ? { type: 'system', text: m.content }
        : m.role === 'user'
          ? { type: 'user', text: m.content }
          : { type: 'model', response: [m.content] },
    );
    // An empty model turn asks for the generation prompt; a trailing assistant message is continued instead.
    if (messages.at(-1)?.role !== 'assistant') history.push({ type: 'model', response: [] });
    try {
      return wrapper.generateContextState({ chatHistory: history });
    } catch (error) {
      throw new ProviderError(
        'client',
        `the model's chat template failed to render these messages: ${errorText(error)}`,
        {
          cause: error,
        },
      );
    }
  };
  const eog = (token: Token) => model.isEogToken(token);
  let stopTriggers: LlamaText[] = [];
  try {
    stopTriggers = render([{ role: 'user', content: 'x' }]).stopGenerationTriggers.filter((trigger) => {
      const tokens = trigger.tokenize(model.tokenizer, 'trimLeadingSpace');
      return !(tokens.length === 1 && eog(tokens[0] as Token));
    });
  } catch {
    // A template that cannot render a single user turn fails again, with its message, on first use.
  }
  return {
    mode: 'model',
    templateHash: createHash('sha256').update(template).digest('hex').slice(0, 8),
    render: (messages) => render(messages).contextText,
    stopTriggers,
  };
}

/** The token llama.cpp prepends to an input (BOS for most vocabularies), as LlamaCompletion decides it. */
export function beginningToken(model: LlamaModel): Token | undefined {
  const type = model.vocabularyType;
  const { LlamaVocabularyType } = llamaCpp();
  if (type === LlamaVocabularyType.rwkv || type === LlamaVocabularyType.ugm) return undefined;
  if (type === LlamaVocabularyType.wpm) return model.tokens.bos ?? undefined;
  return model.tokens.shouldPrependBosToken ? (model.tokens.bos ?? undefined) : undefined;
}

/**
 * Tokenizes a rendered prompt: BOS once (unless the template wrote it), then the text. Plain text is
 * tokenized as llama.cpp's server and the model's own tokenizer do (SentencePiece vocabularies get
 * their leading "▁" dummy prefix; LlamaText.tokenize would drop it). Text with special-token parts
 * (a chat template) goes through LlamaText, which keeps user text from being parsed as special tokens.
 */
export function tokenizePrompt(model: LlamaModel, text: LlamaText): Token[] {
  const plain = text.values.every((value) => typeof value === 'string');
  const tokens = plain ? model.tokenize(text.toString(), false) : text.tokenize(model.tokenizer);
  const bos = beginningToken(model);
  if (bos !== undefined && tokens[0] !== bos) tokens.unshift(bos);
  return tokens;
}

/**
 * Tokens of `continuation` as the model would have generated them after `promptTokens`: the prompt
 * and the continuation are tokenized together and the prompt's tokens split off, so the first
 * continuation token carries its leading space exactly as in generation. When the two merge across
 * the boundary (the prompt's last token changes), the continuation is tokenized alone instead.
 */
export function tokenizeContinuation(
  model: LlamaModel,
  prompt: LlamaText,
  promptTokens: readonly Token[],
  continuation: string,
): Token[] {
  if (continuation === '') return [];
  const joint = tokenizePrompt(model, llamaCpp().LlamaText(prompt, continuation));
  const n = promptTokens.length;
  let samePrefix = joint.length > n;
  for (let i = 0; samePrefix && i < n; i++) if (joint[i] !== promptTokens[i]) samePrefix = false;
  if (samePrefix) return joint.slice(n);
  return model.tokenize(continuation, false, 'trimLeadingSpace');
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
