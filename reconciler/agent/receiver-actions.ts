import type { ReceiverAction, ReceiverEndpointSpec } from '../../schema/types.js';
import { formatDeliveryLine, type Receiver, type WebhookHandler, type WebhookPayload } from '../../runtime/receiver/index.js';

/** A built-in action run for a delivery; its result is the JSON answer. */
export type ActionFn = (payload: WebhookPayload, endpoint: ReceiverEndpointSpec) => Promise<unknown>;

/**
 * The action table, injected by the caller: `robotctl receiver` plugs in
 * stand-ins for reconcile/redeploy, the agent plugs in the reconciler.
 */
export type ReceiverActions = Record<ReceiverAction, ActionFn>;

/** One handler per endpoint of robot.yaml's receiver section, dispatching to its action. */
export function createActionHandlers(endpoints: ReceiverEndpointSpec[], actions: ReceiverActions): { path: string; handler: WebhookHandler }[] {
  return endpoints.map((endpoint) => {
    const action = actions[endpoint.action];
    const handler: WebhookHandler = (payload) => action(payload, endpoint);
    return { path: endpoint.name, handler };
  });
}

/** Register every endpoint on the receiver; returns their absolute paths. */
export function addActionEndpoints(receiver: Receiver, endpoints: ReceiverEndpointSpec[], actions: ReceiverActions): string[] {
  return createActionHandlers(endpoints, actions).map(({ path, handler }) => receiver.add(handler, { path }));
}

/** The built-in `log` action: prints one line per delivery and answers what it logged. */
export function logAction(log: (line: string) => void): ActionFn {
  return async (payload, endpoint) => {
    log(formatDeliveryLine(payload, `/webhooks/${endpoint.name.replace(/^\/+|\/+$/g, '')}`));
    return { logged: true };
  };
}

/**
 * Without a secret, how a robotctl user adds one (the receiver library's own
 * line names `createReceiver`, which a CLI user never calls): the
 * environment, or the receiver section of `file` (its name as the user gave it).
 */
export function cliSecretHint(file: string | null): string {
  const yaml = file === null ? '' : `, or \`receiver.secret: \${WEBHOOK_SECRET}\` in ${file}`;
  return `To add a secret, set \`WEBHOOK_SECRET\` in the environment${yaml}; the webhooks that call these endpoints must send the same secret.`;
}
