import { describe, expect, it } from 'vitest';
import { suiteRoles } from '../report/suite-roles.js';
import { withAdapters } from './adapters.js';
import { CONFIG, PROTOCOLS } from './index.js';

const MODULES = await withAdapters(PROTOCOLS);

describe('the registry', () => {
  it('gives each name, config section and command to one protocol, and each its adapters', () => {
    const unique = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    unique(PROTOCOLS.map((p) => p.name));
    unique(PROTOCOLS.flatMap((p) => (p.config ? [p.config.key] : [])));
    expect(MODULES.map((m) => m.name)).toEqual(PROTOCOLS.map((p) => p.name));
    unique(MODULES.flatMap((p) => Object.keys(p.commands)));
  });

  it('names every suite of a protocol `<protocol>/<stage>`, and claims its primary suite in the report', async () => {
    for (const p of MODULES) {
      if (!p.suites) continue;
      for (const name of [p.suites.primary, ...Object.keys(p.suites.others)])
        expect(name.startsWith(`${p.name}/`)).toBe(true);
      const section = await p.section();
      const [, stage] = p.suites.primary.split('/');
      expect(
        section.claims({
          hash: 'h',
          name: p.suites.primary,
          protocol: p.name,
          stage,
          role: 'system under test',
          tests: 1,
          createdAt: '',
        }),
      ).toBe(true);
    }
  });

  it('declares a role for every suite its runs write, so the report reads roles and guesses none', () => {
    const roles = suiteRoles(PROTOCOLS);
    const declared = PROTOCOLS.flatMap((p) =>
      p.suites ? [p.suites.primary, ...Object.keys(p.suites.others)] : [],
    );
    // waver's own; a protocol added to the registry adds its suites and changes none of these.
    const builtIn = {
      'ladder/tests': 'system under test',
      'ladder/kb-judge': 'judge',
      'ladder/answer-judge': 'judge',
      'ladder/generator': 'generator',
      'ladder/gate-nli': 'judge',
      'ladder/gate-meaning': 'judge',
      'ladder/gate-epistemic': 'judge',
      // A name guess read `admission` as a system under test's stage.
      'ladder/admission': 'bookkeeping',
      'sago/responses': 'system under test',
      'sago/generator': 'generator',
      'sago/politeness-judge': 'judge',
      'sago/manifest': 'bookkeeping',
      'paraphrase/items': 'system under test',
      'paraphrase/reword': 'generator',
    };
    expect(Object.fromEntries(Object.keys(builtIn).map((name) => [name, roles(name)]))).toEqual(builtIn);
    expect(declared).toEqual(expect.arrayContaining(Object.keys(builtIn)));
  });

  it("composes waver.yaml from the protocols' sections", () => {
    expect(CONFIG.validate({ ladder: { seeds: 2 } }).ladder).toMatchObject({ seeds: 2, attempts: 2 });
    expect(() => CONFIG.validate({ ladder: { seed: 2 } } as never)).toThrow(/unknown field/);
  });
});
