/**
 * A string laid out in one piece. V8 builds the result of `+`, template literals and
 * `replace` as a tree of pieces (a cons string), and crypto.randomUUID() returns one of
 * about twenty: a uid kept in a stored object then costs ~500 bytes instead of ~56, and an
 * RFC 3339 time made by replace() keeps the longer ISO string it was cut from. Strings that
 * live as long as a stored object (uids, creation and event times) are flattened once here.
 * A round trip through latin1 bytes is the cheap way to get a sequential string; anything
 * outside latin1 is returned as it is.
 */
export function flatString(s: string): string {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return s;
  return Buffer.from(s, 'latin1').toString('latin1');
}
