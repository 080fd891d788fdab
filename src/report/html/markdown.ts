/**
 * The Markdown the protocols' table writers produce, as HTML: headings, pipe tables, bullet lists,
 * block quotes, paragraphs, `code` and **bold**. Reusing their Markdown keeps the HTML report's
 * tables the same as the command's output. Every character of text is escaped before the few
 * inline marks are turned into tags, so model or dataset text inside a table stays text.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

/** Cells of a pipe-table row; `\|` is a literal bar inside a cell. */
function cellsOf(line: string): string[] {
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\\' && body[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (c === '|') {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

const isSeparator = (line: string) => /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line.trim());

export function markdownToHtml(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) out.push(`<p>${inline(para.join(' '))}</p>`);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) {
      flush();
      const level = (heading[1] as string).length;
      out.push(`<h${level}>${inline(heading[2] as string)}</h${level}>`);
      continue;
    }
    if (line.trim().startsWith('|') && isSeparator(lines[i + 1] ?? '')) {
      flush();
      const head = cellsOf(line);
      const align = cellsOf(lines[i + 1] as string).map((c) => (c.endsWith(':') ? 'num' : ''));
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && (lines[i] as string).trim().startsWith('|'))
        rows.push(cellsOf(lines[i++] as string));
      i--;
      const td = (c: string, k: number, tag: 'td' | 'th') =>
        `<${tag}${align[k] ? ` class="${align[k]}"` : ''}>${inline(c)}</${tag}>`;
      out.push(
        `<div class="table-wrap"><table><thead><tr>${head.map((c, k) => td(c, k, 'th')).join('')}</tr></thead><tbody>${rows
          .map((r) => `<tr>${r.map((c, k) => td(c, k, 'td')).join('')}</tr>`)
          .join('')}</tbody></table></div>`,
      );
      continue;
    }
    if (/^\s*- /.test(line)) {
      flush();
      const items: string[] = [];
      while (i < lines.length && /^\s*- /.test(lines[i] as string))
        items.push((lines[i++] as string).replace(/^\s*- /, ''));
      i--;
      out.push(`<ul>${items.map((t) => `<li>${inline(t)}</li>`).join('')}</ul>`);
      continue;
    }
    if (line.startsWith('> ')) {
      flush();
      out.push(`<blockquote>${inline(line.slice(2))}</blockquote>`);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    para.push(line);
  }
  flush();
  return out.join('\n');
}
