import t from 'tap';
import { parseWebhookList } from '../../../drivers/hub/wire.js';

// The hub's webhook objects as the driver reads them: only the fields robotctl
// knows, in its own spelling, whatever else the hub sends.

t.test('a webhook list: known fields kept, extra keys dropped, the plural domain spelled as robotctl does', async (t) => {
  const [plain, odd] = parseWebhookList([
    { id: 'a', url: 'https://x.org/a', watched: [{ type: 'space', name: 'o/app' }], domains: ['repo'], secret: 's', disabled: false, owner: 'me', createdAt: '2026' },
    { id: 'b', jobSourceId: 'j', watched: [{ type: 'user', name: 'o', extra: 1 }], domains: ['discussions', 'repo'], disabled: true },
  ]);
  t.strictSame(plain, { id: 'a', url: 'https://x.org/a', job: null, watched: [{ type: 'space', name: 'o/app' }], domains: ['repo'], secret: 's', disabled: false });
  t.strictSame(odd, { id: 'b', url: null, job: null, watched: [{ type: 'user', name: 'o' }], domains: ['discussion', 'repo'], secret: null, disabled: true, jobSourceId: 'j' });
  // A list kept as the hub sent it only when every item is: one odd item copies them all.
  const [mixed] = parseWebhookList([{ id: 'c', url: 'https://x.org/c', watched: [{ type: 'space', name: 'o/app' }, { type: 'user', name: 'o', extra: 1 }] }]);
  t.strictSame(mixed?.watched, [{ type: 'space', name: 'o/app' }, { type: 'user', name: 'o' }]);
});

t.test('a list the driver cannot read is an error that says what is wrong', async (t) => {
  t.throws(() => parseWebhookList({}), /webhook list is not an array/);
  t.throws(() => parseWebhookList([{ id: 'a', watched: [{ type: 'team', name: 'x' }] }]), /unknown watched type team/);
  t.throws(() => parseWebhookList([{ id: 'a', watched: [], domains: ['push'] }]), /unknown domain push/);
});
