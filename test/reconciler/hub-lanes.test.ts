import t from 'tap';
import { hubLanes, mergeLanes, HUB_LANES } from '../../reconciler/execute/hub-lanes.js';
import type { UnitOutput } from '../../reconciler/execute/machine.js';
import type { Action } from '../../reconciler/types.js';

// The hub's actions in lanes: a webhook's actions together and in plan order,
// webhooks spread over at most HUB_LANES lanes, and the lanes' outputs merged
// back into the one hub unit in plan order.

const act = (type: 'adopt' | 'enable' | 'create' | 'delete', name: string): Action =>
  ({ type, address: `webhooks.${name}`, name, id: `id-${name}`, reason: 'test' }) as unknown as Action;

t.test('a webhook\'s actions share a lane, in order; webhooks are spread', async (t) => {
  const actions = [act('adopt', 'a'), act('create', 'b'), act('enable', 'a'), ...Array.from({ length: 20 }, (_, i) => act('create', `c${i}`))];
  const lanes = hubLanes(actions);
  t.equal(lanes.length, HUB_LANES, 'as many lanes as allowed');
  const laneOfA = lanes.find((l) => l.some((x) => x.address === 'webhooks.a'));
  t.same(laneOfA?.filter((x) => x.address === 'webhooks.a').map((x) => x.type), ['adopt', 'enable'], 'adopt then enable, in one lane');
  t.equal(lanes.flat().length, actions.length, 'every action once');
  t.ok(lanes.every((l) => l.length <= Math.ceil(21 / HUB_LANES) + 1), 'spread evenly');
  t.same(hubLanes(actions.slice(0, 3), 1), [actions.slice(0, 3)], 'one lane: the plan as it is');
  t.same(hubLanes([]), [], 'nothing to do, no lane');
});

t.test('merged outputs: plan order, the worst status', async (t) => {
  const actions = [act('create', 'a'), act('create', 'b'), act('create', 'c'), act('delete', 'd')];
  const [a, b, c, d] = actions as [Action, Action, Action, Action];
  const out = (status: UnitOutput['status'], completed: Action[], notDone: Action[] = []): UnitOutput =>
    ({ unit: 'hub', status, completed, failed: [], notDone });
  t.same(mergeLanes('hub', actions, [out('done', [d, b]), out('done', [c, a])]).completed, actions, 'completed in plan order');
  const stopped = mergeLanes('hub', actions, [out('done', [b]), out('stopped', [a], [d, c])]);
  t.equal(stopped.status, 'stopped');
  t.same(stopped.notDone, [c, d]);
  const failed = mergeLanes('hub', actions, [out('stopped', [], [b]), { ...out('failed', [a]), failed: [{ action: c, error: 'x' }] }]);
  t.equal(failed.status, 'failed', 'a failed lane fails the unit');
  t.same(failed.failed, [{ action: c, error: 'x' }]);
});
