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
});
