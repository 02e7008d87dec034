/** The alphabet upstream's name generator draws from (no vowels, no look-alikes). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** A random suffix of n characters, as upstream's SimpleNameGenerator and token names use. */
export function randomSuffix(n = 5): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return s;
}
