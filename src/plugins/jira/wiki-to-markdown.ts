// Jira wiki markup (Server / Data Center descriptions and comments) to Markdown for the agent: headings, emphasis,
// code, links, lists, quotes and tables rewritten line by line; {code} and {noformat} blocks kept verbatim.

const CODE_OPEN = /^\{(code|noformat)(?::([^}|]*))?[^}]*\}\s*$/;
const CODE_CLOSE = /^\{(code|noformat)\}\s*$/;
const LIST = /^([*#-]+)\s+(.*)$/;
const HEADING = /^h([1-6])\.\s+(.*)$/;

/** Inline markup: {{code}} first (its content is left alone), then links, images and emphasis. */
function inline(text: string): string {
  const codes: string[] = [];
  let out = text.replace(/\{\{(.+?)\}\}/g, (_m, code: string) => {
    codes.push(code.replace(/\\([{}])/g, '$1'));
    return `\uE000${codes.length - 1}\uE000`;
  });
  out = out
    .replace(/\[([^\]|]+)\|([^\]]+)\]/g, '[$1]($2)')
    .replace(/\[((?:https?|mailto):[^\]]+)\]/g, '<$1>')
    .replace(/!([^\s!|]+)(?:\|[^!]*)?!/g, '![]($1)')
    .replace(/(^|[\s(])\*(\S(?:.*?\S)?)\*(?=$|[\s).,:;!?])/g, '$1**$2**')
    .replace(/(^|[\s(])_(\S(?:.*?\S)?)_(?=$|[\s).,:;!?])/g, '$1*$2*')
    .replace(/(^|[\s(])-(\S(?:.*?\S)?)-(?=$|[\s).,:;!?])/g, '$1~~$2~~')
    .replace(/\\([*_{}[\]|!^~+-])/g, '$1');
  return out.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => `\`${codes[Number(i)] ?? ''}\``);
}

function tableRow(line: string): string[] {
  const header = line.startsWith('||');
  const cells = line
    .replace(/^\|\|?/, '')
    .replace(/\|\|?\s*$/, '')
    .split(header ? '||' : '|')
    .map((cell) => inline(cell.trim()));
  const row = `| ${cells.join(' | ')} |`;
  return header ? [row, `|${cells.map(() => ' --- ').join('|')}|`] : [row];
}

/** Wiki markup as Markdown; text without markup comes back unchanged. */
export function wikiToMarkdown(wiki: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  let quoting = false;
  for (const line of wiki.replace(/\r\n?/g, '\n').split('\n')) {
    if (fence !== undefined) {
      if (CODE_CLOSE.test(line.trim())) {
        out.push('```');
        fence = undefined;
      } else out.push(line);
      continue;
    }
    const open = CODE_OPEN.exec(line.trim());
    if (open) {
      fence = open[2]?.trim() ?? '';
      out.push(`\`\`\`${open[1] === 'code' ? fence : ''}`);
      continue;
    }
    if (line.trim() === '{quote}') {
      quoting = !quoting;
      continue;
    }
    const prefix = quoting ? '> ' : '';
    const heading = HEADING.exec(line);
    const listItem = LIST.exec(line);
    if (heading) out.push(`${prefix}${'#'.repeat(Number(heading[1]))} ${inline(heading[2] ?? '')}`);
    else if (line.startsWith('bq. ')) out.push(`> ${inline(line.slice(4))}`);
    else if (line.trim() === '----') out.push(`${prefix}---`);
    else if (line.startsWith('|')) out.push(...tableRow(line.trim()).map((row) => prefix + row));
    else if (listItem && !/^-+$/.test(listItem[1] ?? '')) {
      const markers = listItem[1] ?? '*';
      const indent = '  '.repeat(markers.length - 1);
      out.push(`${prefix}${indent}${markers.endsWith('#') ? '1.' : '-'} ${inline(listItem[2] ?? '')}`);
    } else out.push(prefix + inline(line));
  }
  if (fence !== undefined) out.push('```');
  return out.join('\n');
}
