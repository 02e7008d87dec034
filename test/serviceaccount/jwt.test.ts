import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legacyClaims, TokenSigner } from '../../src/serviceaccount/jwt';

test('service-account tokens verify with the cluster key only', () => {
  const signer = new TokenSigner();
  const token = signer.sign(legacyClaims('ns', 'default', 'uid-1', 'default-token-abcde'));
  assert.equal(signer.verify<{ sub: string }>(token)?.sub, 'system:serviceaccount:ns:default');
  assert.equal(new TokenSigner().verify(token), undefined);
  const [h, , s] = token.split('.');
  const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url')}.${s}`;
  assert.equal(signer.verify(forged), undefined);
  assert.equal(signer.verify('not.a.token'), undefined);
});
