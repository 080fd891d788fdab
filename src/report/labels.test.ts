import { describe, expect, it } from 'vitest';
import { shortLabel, shortLabels } from './labels.js';

describe('shortLabels', () => {
  it('shows the part that tells a q4_k_m/q8_0 pair apart, not the prefix they share (issue 37.6)', () => {
    const q4 = 'gguf:hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf';
    const q8 = 'gguf:hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf';
    const short = shortLabels([q4, q8]);
    expect(short.get(q4)).toBe('…q4_k_m');
    expect(short.get(q8)).toBe('…q8_0');
    // One label alone has nothing to be told from: its start … its end, as before.
    expect(shortLabel(q4)).toBe('gguf:hf:Qwen…5b-instruct-q4_k_m.gguf');
  });

  it('keeps short labels whole, marks a shared suffix that is more than an extension, and keeps every label distinct', () => {
    const a = 'openai:gpt-4o-mini@http://127.0.0.1:8080/v1/some/long/path';
    const b = 'openai:gpt-4o@http://127.0.0.1:8080/v1/some/long/path';
    const short = shortLabels([a, b, 'replay:alpha', 'replay:beta']);
    expect(short.get('replay:alpha')).toBe('replay:alpha');
    expect(short.get('replay:beta')).toBe('replay:beta');
    expect(short.get(a)).toBe('…mini…');
    expect(short.get(b)).toBe('…4o…');
    // A label whose shortened form would read as another's is shown whole.
    const long = `gguf:/models/${'x'.repeat(40)}.gguf`;
    const longer = `gguf:/models/${'x'.repeat(40)}-v2.gguf`;
    const s2 = shortLabels([long, longer]);
    expect(new Set(s2.values()).size).toBe(2);
    expect(s2.get(longer)).toBe('…v2');
  });
});
