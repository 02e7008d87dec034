/**
 * Splits a command line into words the way a POSIX shell does for simple quoting: blanks
 * separate words, '…' and "…" group them (an empty pair is an empty word), nothing else is
 * special. An unterminated quote is an error (as sh's "Unterminated quoted string"), or,
 * with `closeUnterminated`, runs to the end of the line.
 */
export function splitShellWords(line: string, options: { closeUnterminated?: boolean } = {}): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  let any = false;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      any = true;
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
    } else cur += ch;
  }
  if (quote && !options.closeUnterminated) throw new Error(`unbalanced quote in: ${line}`);
  if (cur || any) out.push(cur);
  return out;
}
