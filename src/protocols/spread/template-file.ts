import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { InputError } from '../../errors.js';
import { readTextFile } from '../../util/text-file.js';
import type { Template } from './templates.js';

/**
 * A user's templates (docs/spread.md#your-templates): JSONL (`{"id": ..., "template": ...}` a
 * line), YAML (a list of such objects or of strings), or a CSV as Mizrahi et al.'s sets are kept in
 * felipemaiapolo/prompteval `data/templates/` (`,prompt template` then `N,"text"`). A template
 * holds `{question}` and `{choices}` (and may hold `{topic}`); a bad one is named by file, line and field.
 */

interface Raw {
  id?: unknown;
  template?: unknown;
  line: number;
}

export function readTemplateFile(file: string): Template[] {
  const text = readTextFile(file);
  const ext = extname(file).toLowerCase();
  const raws = ext === '.jsonl' ? jsonl(file, text) : ext === '.csv' ? csv(file, text) : yamlList(file, text);
  if (raws.length === 0)
    throw new InputError('the templates file holds no template', { file, field: 'templates' });
  const seen = new Set<string>();
  return raws.map((r, index) => {
    if (typeof r.template !== 'string' || r.template.trim() === '')
      throw new InputError('a template must be a non-empty string', {
        file,
        line: r.line,
        field: 'template',
      });
    for (const slot of ['{question}', '{choices}'])
      if (!r.template.includes(slot))
        throw new InputError(`the template has no ${slot}: it would drop the item's content`, {
          file,
          line: r.line,
          field: 'template',
        });
    const id = r.id === undefined ? `t-${String(index).padStart(3, '0')}` : String(r.id);
    if (seen.has(id))
      throw new InputError(`template id '${id}' is used twice`, { file, line: r.line, field: 'id' });
    seen.add(id);
    return { index, id, kind: 'user', text: r.template, source: `${file}:${r.line}` };
  });
}

function jsonl(file: string, text: string): Raw[] {
  const out: Raw[] = [];
  text.split('\n').forEach((lineText, i) => {
    if (lineText.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(lineText);
    } catch (e) {
      throw new InputError(`not JSON: ${(e as Error).message}`, { file, line: i + 1 });
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw new InputError('a line must be an object {"id", "template"}', { file, line: i + 1 });
    out.push({ ...(v as object), line: i + 1 });
  });
  return out;
}

function yamlList(file: string, text: string): Raw[] {
  let v: unknown;
  try {
    v = parseYaml(text);
  } catch (e) {
    throw new InputError(`not YAML: ${(e as Error).message}`, { file });
  }
  if (!Array.isArray(v)) throw new InputError('expected a list of templates', { file, field: 'templates' });
  return v.map((e, i) =>
    typeof e === 'string' ? { template: e, line: i + 1 } : { ...(e as object), line: i + 1 },
  );
}

/** The two-column CSV of prompteval's template sets: an index, then the template, quoted across lines. */
function csv(file: string, text: string): Raw[] {
  const out: Raw[] = [];
  let line = 1;
  let i = text.indexOf('\n') + 1; // the header
  line++;
  while (i < text.length) {
    const comma = text.indexOf(',', i);
    if (comma < 0) break;
    const id = text.slice(i, comma).trim();
    const at = line;
    let value = '';
    let j = comma + 1;
    if (text[j] === '"') {
      j++;
      for (;;) {
        if (j >= text.length)
          throw new InputError('an unclosed quote', { file, line: at, field: 'template' });
        if (text[j] === '"' && text[j + 1] === '"') [value, j] = [`${value}"`, j + 2];
        else if (text[j] === '"') break;
        else {
          if (text[j] === '\n') line++;
          value += text[j];
          j++;
        }
      }
      j++;
    } else {
      const end = text.indexOf('\n', j);
      value = text.slice(j, end < 0 ? text.length : end).replace(/\r$/, '');
      j = end < 0 ? text.length : end;
    }
    out.push({ id, template: value, line: at });
    i = text.indexOf('\n', j) + 1 || text.length;
    line++;
  }
  return out;
}
