import { spawnSync } from 'node:child_process';
import { runPython } from '../python3.js';

/**
 * An independent forward pass of a small llama-architecture GGUF in numpy (float64): the GGUF read
 * from its bytes, the hidden state of the last token after every layer as Hugging Face's
 * `output_hidden_states` lists them (the token embedding, layers 1..L-1, the last layer after the
 * final norm). For F32/F16 weights only; it checks what the patched addon's layer capture returns
 * without llama.cpp in the loop. llama.cpp keeps K and V in F16 and accumulates attention in F16 on
 * the CPU, so the two agree to about 1e-3 absolute, not to the last bit.
 */

const numpyProbe = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' });
export const numpyMissing =
  numpyProbe.status === 0 ? undefined : 'skipped: python3 with numpy is not available';

/** The L + 1 last-token states of `tokens` (without BOS: the GGUF's BOS is put first, as the embedding context does). */
export function numpyLayerStates(modelPath: string, tokens: readonly number[]): number[][] {
  return runPython<number[][]>(PROGRAM, { modelPath, tokens });
}

const PROGRAM = `
import json, struct, sys
import numpy as np
args = json.load(sys.stdin)
data = open(args['modelPath'], 'rb').read()
o = 4
def take(fmt):
    global o
    v = struct.unpack_from('<' + fmt, data, o)[0]
    o += struct.calcsize('<' + fmt)
    return v
def string():
    global o
    n = take('Q'); s = data[o:o + n].decode('utf-8', 'replace'); o += n
    return s
SCALAR = {0: 'B', 1: 'b', 2: 'H', 3: 'h', 4: 'I', 5: 'i', 6: 'f', 7: '?', 10: 'Q', 11: 'q', 12: 'd'}
def value(t):
    if t in SCALAR: return take(SCALAR[t])
    if t == 8: return string()
    et = take('I'); n = take('Q')
    return [value(et) for _ in range(n)]
assert data[:4] == b'GGUF'
take('I'); n_tensors = take('Q'); n_kv = take('Q')
meta = {}
for _ in range(n_kv):
    k = string(); meta[k] = value(take('I'))
infos = []
for _ in range(n_tensors):
    name = string(); dims = [take('Q') for _ in range(take('I'))]; typ = take('I'); off = take('Q')
    infos.append((name, dims, typ, off))
align = meta.get('general.alignment', 32)
base = (o + align - 1) // align * align
W = {}
for name, dims, typ, off in infos:
    n = int(np.prod(dims))
    dtype = {0: np.float32, 1: np.float16}[typ]
    # ggml's first dimension is the fastest: numpy's shape is the reverse.
    W[name] = np.frombuffer(data, dtype, n, base + off).astype(np.float64).reshape(list(reversed(dims)))
arch = meta['general.architecture']
L = meta[arch + '.block_count']; d = meta[arch + '.embedding_length']
nh = meta[arch + '.attention.head_count']; nkv = meta.get(arch + '.attention.head_count_kv', nh)
eps = meta[arch + '.attention.layer_norm_rms_epsilon']; theta = meta.get(arch + '.rope.freq_base', 10000.0)
hd = d // nh
tokens = [meta['tokenizer.ggml.bos_token_id']] + args['tokens']; T = len(tokens)
def rms(x, w): return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * w
def rope(x):
    # llama.cpp's normal mode: adjacent pairs rotated by position * theta^(-2i/hd).
    ang = np.arange(T)[:, None] * theta ** (-np.arange(0, hd, 2) / hd)[None, :]
    c = np.cos(ang)[:, None, :]; s = np.sin(ang)[:, None, :]
    out = np.empty_like(x)
    out[..., 0::2] = x[..., 0::2] * c - x[..., 1::2] * s
    out[..., 1::2] = x[..., 0::2] * s + x[..., 1::2] * c
    return out
x = W['token_embd.weight'][tokens]
states = [x[-1].copy()]
for l in range(L):
    p = 'blk.%d.' % l
    h = rms(x, W[p + 'attn_norm.weight'])
    q = rope((h @ W[p + 'attn_q.weight'].T).reshape(T, nh, hd))
    k = rope((h @ W[p + 'attn_k.weight'].T).reshape(T, nkv, hd))
    v = (h @ W[p + 'attn_v.weight'].T).reshape(T, nkv, hd)
    k = np.repeat(k, nh // nkv, axis=1); v = np.repeat(v, nh // nkv, axis=1)
    att = np.einsum('thd,shd->hts', q, k) / np.sqrt(hd) + np.triu(np.full((T, T), -np.inf), 1)[None]
    att = np.exp(att - att.max(-1, keepdims=True)); att /= att.sum(-1, keepdims=True)
    x = x + np.einsum('hts,shd->thd', att, v).reshape(T, d) @ W[p + 'attn_output.weight'].T
    h = rms(x, W[p + 'ffn_norm.weight'])
    g = h @ W[p + 'ffn_gate.weight'].T
    x = x + (g / (1 + np.exp(-g)) * (h @ W[p + 'ffn_up.weight'].T)) @ W[p + 'ffn_down.weight'].T
    states.append(x[-1].copy())
states[-1] = rms(x, W['output_norm.weight'])[-1]
json.dump([s.tolist() for s in states], sys.stdout)
`;
