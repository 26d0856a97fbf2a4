// The official receiver's start-up messages, so users (and their log
// scrapers) see the same lines, with the verb spelt as a verb ("set up", where
// huggingface_hub writes "setup"). The init example names our API, not Python's.

export const DEFAULT_SECRET_HINT = "To add a secret, set `WEBHOOK_SECRET` as environment variable or pass it at initialization: \n\t`createReceiver({ secret: 'my_secret', ... })`";

/** `secretHint`: how to add a secret, in the words of whoever runs the receiver (a CLI has no `createReceiver`). */
export function secretMessages(hasSecret: boolean, secretHint = DEFAULT_SECRET_HINT): string[] {
  if (hasSecret) return ['Webhook secret is correctly defined.'];
  return [
    'Webhook secret is not defined. This means your webhook endpoints will be open to everyone.',
    secretHint,
    'For more details about webhook secrets, please refer to https://huggingface.co/docs/hub/webhooks#webhook-secret.',
  ];
}

export const DEFAULT_SETUP_HINT = 'Go to https://huggingface.co/settings/webhooks to set up your webhooks.';

export function readyMessages(url: string, endpoints: string[], setupHint = DEFAULT_SETUP_HINT): string[] {
  const base = url.replace(/\/+$/, '');
  return [
    '',
    'Webhooks are correctly set up and ready to use:',
    ...endpoints.map((e) => `  - POST ${base}${e}`),
    setupHint,
  ];
}
