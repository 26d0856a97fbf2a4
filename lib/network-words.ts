// A network error code as a newcomer reads it: `EAI_AGAIN` alone says
// nothing to someone who ran `app publish` offline. The code stays first (what
// a search finds and what scripts match); the words follow in parentheses.

const WORDS: Record<string, string> = {
  ENOTFOUND: 'host name not found: no network, or a wrong name?',
  EAI_AGAIN: 'host name not found: no network, or a wrong name?',
  ECONNREFUSED: 'connection refused: nothing listens on that port',
  ENETUNREACH: 'network unreachable: no network?',
  EHOSTUNREACH: 'no route to that host',
  ECONNRESET: 'the connection was reset',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
};

/** `EAI_AGAIN (host name not found: …)`, or the code alone when it has no words here. */
export function networkCodeText(code: string): string {
  const words = WORDS[code];
  return words === undefined ? code : `${code} (${words})`;
}
