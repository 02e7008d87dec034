import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { flatString } from '../../src/util/flat-string';

test('flatString keeps the text: latin1, the rest, the empty string', () => {
  for (const s of [randomUUID(), `${'a'.repeat(3)}.${Date.now()}`, 'é ü ß', '', 'ünïcødé ✓ 日本', '\u0000x']) {
    assert.equal(flatString(s), s);
  }
});
