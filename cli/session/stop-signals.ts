// Resolves on the first SIGINT or SIGTERM; `cancel` removes the listeners.
// Servers call it before printing that they are ready: a Ctrl-C that comes
// right after the ready lines must find the listeners in place, or Node's
// default action kills the process without its clean close.
export function waitForStop(): { promise: Promise<string>; cancel: () => void } {
  let cancel = (): void => {};
  const promise = new Promise<string>((resolve) => {
    const on = (signal: string) => (): void => { cancel(); resolve(signal); };
    const onInt = on('SIGINT');
    const onTerm = on('SIGTERM');
    cancel = () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
  return { promise, cancel };
}
