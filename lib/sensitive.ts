// How a secret reads wherever robotctl shows one (plans, diffs, validate
// --print, webhooks info, status, the hub's job records): never the value.
export const SENSITIVE = '(sensitive)';
export const SENSITIVE_CHANGED = '(sensitive value changed)';
