/** json-schema-to-typescript without prettier (which dominates its run time) emits flat lines; indent them by brace depth. */
export function indentTs(code: string): string {
  let depth = 0;
  return code
    .split('\n')
    .map((raw) => {
      const line = raw.trim();
      if (/^[}\])]/.test(line)) depth = Math.max(0, depth - 1);
      const indented = line === '' ? '' : `${'  '.repeat(depth)}${line.startsWith('*') ? ` ${line}` : line}`;
      if (/[{[(]$/.test(line)) depth += 1;
      return indented;
    })
    .join('\n');
}
