import t from 'tap';
import { verifySecret } from '../../runtime/receiver/index.js';

t.test('verifySecret', async (t) => {
  t.equal(verifySecret(undefined, ['s3cret']), 'missing');
  t.equal(verifySecret('s3cret', ['s3cret']), 'ok');
  t.equal(verifySecret('S3CRET', ['s3cret']), 'invalid');
  t.equal(verifySecret('', ['s3cret']), 'invalid', 'an empty header is invalid, not missing');
  t.equal(verifySecret('s3cret-but-longer', ['s3cret']), 'invalid', 'different lengths compare safely');
  t.equal(verifySecret('new', ['old', 'new']), 'ok', 'rotation: the second secret is accepted');
  t.equal(verifySecret('old', ['old', 'new']), 'ok', 'rotation: the first secret too');
  t.equal(verifySecret('x', []), 'invalid', 'no accepted secret matches nothing');
  t.equal(verifySecret('é', ['é']), 'ok', 'non-ASCII compares by UTF-8 bytes');
  t.equal(verifySecret('é', ['e']), 'invalid', 'a non-ASCII look-alike is another secret');
});

// The comparison walks the header against the secret repeated, so a repeat,
// a prefix or the secret with something after it must still be refused.
t.test('verifySecret: prefixes and repeats of the secret are refused', async (t) => {
  t.equal(verifySecret('s3crets3cret', ['s3cret']), 'invalid', 'the secret twice');
  t.equal(verifySecret('s3c', ['s3cret']), 'invalid', 'a prefix');
  t.equal(verifySecret('s3cret\0', ['s3cret']), 'invalid', 'the secret and a NUL');
  t.equal(verifySecret('s3cret', ['s3cret', '']), 'ok', 'an empty accepted secret is ignored, the other still matches');
  t.equal(verifySecret('', ['']), 'invalid', 'an empty secret never matches');
});
