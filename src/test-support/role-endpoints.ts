import { createHash } from 'node:crypto';
import { type Loopback, sendJson, startLoopback } from './models/loopback.js';

/** The roles a command's models play, each served under its own path: `/<role>/v1`. */
export const ENDPOINT_ROLES = ['model', 'judge', 'generator', 'embedder'] as const;
export type EndpointRole = (typeof ENDPOINT_ROLES)[number];

/** What one role's endpoint was sent: every request (any method or path), its chat calls and their output caps. */
export interface RoleCount {
  requests: number;
  chats: number;
  embeddings: number;
  /** The sum of `max_tokens` (or `max_completion_tokens`) over the chat calls. */
  maxTokens: number;
}

export interface RoleEndpoints {
  /** The model spec of a role's endpoint: `openai:<role>@http://127.0.0.1:PORT/<role>/v1`. */
  spec(role: EndpointRole): string;
  count(role: EndpointRole): RoleCount;
  /** Every request any role's endpoint received. */
  total(): number;
  close(): Promise<void>;
}

/**
 * One OpenAI-compatible server on loopback that counts what each role is sent. Every answer passes:
 * the NLI judge says `entailment`, the other judges get one JSON object every rubric reads as a pass
 * (meaning kept, unanswerable and coherent, KB score 1, register neutral); the systems under test
 * and the generator answer a text distinct per prompt (so no two candidates, rewrites or responses
 * are one), and the embedder gives every text the same vector (every meaning check passes).
 */
export async function startRoleEndpoints(): Promise<RoleEndpoints> {
  const counts = new Map<EndpointRole, RoleCount>(
    ENDPOINT_ROLES.map((r) => [r, { requests: 0, chats: 0, embeddings: 0, maxTokens: 0 }]),
  );
  const server: Loopback = await startLoopback((_req, res, seen) => {
    const role = seen.url.split('/')[1] as EndpointRole;
    const count = counts.get(role);
    if (!count) return sendJson(res, 404, { error: { message: `no role in ${seen.url}` } });
    count.requests++;
    if (seen.method !== 'POST') return sendJson(res, 200, { object: 'list', data: [] });
    const body = JSON.parse(seen.body) as {
      input?: string[];
      messages?: { role: string; content: string }[];
      max_tokens?: number;
      max_completion_tokens?: number;
    };
    if (seen.url.endsWith('/embeddings')) {
      count.embeddings++;
      const data = (body.input ?? []).map((_, index) => ({ index, embedding: [0.6, 0.8] }));
      return sendJson(res, 200, { object: 'list', data, usage: { prompt_tokens: 1, total_tokens: 1 } });
    }
    count.chats++;
    count.maxTokens += body.max_tokens ?? body.max_completion_tokens ?? 0;
    const content = answerOf(role, body.messages ?? []);
    sendJson(res, 200, {
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: role,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
  return {
    spec: (role) => `openai:${role}@${server.origin}/${role}/v1`,
    count: (role) => ({ ...(counts.get(role) as RoleCount) }),
    total: () => server.requests.length,
    close: () => server.close(),
  };
}

const PASS = JSON.stringify({
  pass: true,
  unanswerable: true,
  coherent: true,
  score: 1,
  register: 'neutral',
  reason: 'it holds',
});

function answerOf(role: EndpointRole, messages: { role: string; content: string }[]): string {
  const asked = messages.map((m) => m.content).join('\n');
  const tag = createHash('sha256').update(asked).digest('hex').slice(0, 10);
  if (role === 'judge') return /textual entailment/.test(asked) ? 'entailment' : PASS;
  if (role === 'generator') return `How many apples are there in basket ${tag}, whose count nobody recorded?`;
  return `Working ${tag}. {"answer": 4}\n#### 4`;
}
