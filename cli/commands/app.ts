import type { Io } from '../../lib/io.js';
import { newCommand, parse, subCommand } from '../command.js';
import { tokenFromFlags, withTokenOptions, type TokenFlags } from '../session/token-flags.js';
import { EXIT } from '../exit-codes.js';

// `robotctl app create|check|publish`: the real `reachy-mini-app-assistant`
// with the same rules and messages, non-interactive.
export async function run(args: string[], io: Io): Promise<number> {
  const cmd = newCommand('app', io).description('App authoring: create, check and publish Reachy Mini apps');

  withTokenOptions(subCommand(cmd, 'create', io), 'with --publish: Hub token (default: HF_TOKEN, else the token `auth login` saved)')
    .description('Create a new app folder from a template')
    .argument('<name>', 'app name: a Python package name (underscores, no dashes)')
    .argument('<dest>', 'folder the app folder is created in (made when missing)')
    .option('--template <template>', 'default (settings page + head/antenna loop) or conversation', 'default')
    .option('--publish', 'publish the new app as a Space right after creating it, and make the folder a git clone of it (origin)')
    .option('--private', 'with --publish: make the Space private')
    .action(async (name: string, dest: string, opts: TokenFlags & { template: string; publish?: boolean; private?: boolean }) => {
      const token = opts.publish ? tokenFromFlags(io, opts) ?? undefined : undefined;
      // Without a token the publish would fail after the folder is made, and a second try would find it there.
      if (opts.publish) (await import('../app/publish.js')).publishToken(token, io);
      const { createApp } = await import('../app/create.js');
      const base = createApp({ name, dest, template: opts.template }, io);
      if (opts.publish) {
        const { publishApp } = await import('../app/publish.js');
        const url = await publishApp({ path: base, token, private: Boolean(opts.private), check: true }, io);
        await (await import('../app/publish-remote.js')).setSpaceRemote(base, url, token, io);
      }
    });

  subCommand(cmd, 'check', io)
    .description('Check an app folder: files, pyproject entry point, README metadata, install and uninstall in a temporary venv')
    .argument('<path>', 'the app folder (the one with pyproject.toml)')
    .option('--offline', "install without the package index, with robotctl's reachy_mini stand-in (automatic when PIP_NO_INDEX is set or the index is unreachable)")
    .action(async (path: string, opts: { offline?: boolean }) => {
      const { checkApp } = await import('../app/check.js');
      await checkApp(path, io, { offline: Boolean(opts.offline) });
    });

  withTokenOptions(subCommand(cmd, 'publish', io), 'Hub token (default: HF_TOKEN, else the token `auth login` saved)')
    .description('Create the Space <user>/<name> on the Hub and upload the app in one commit')
    .argument('<path>', 'the app folder')
    .option('--private', 'make the Space private')
    .option('--no-check', 'skip `app check` before uploading')
    .action(async (path: string, opts: TokenFlags & { private?: boolean; check: boolean }) => {
      const { publishApp } = await import('../app/publish.js');
      await publishApp({ path, token: tokenFromFlags(io, opts) ?? undefined, private: Boolean(opts.private), check: opts.check }, io);
    });

  await parse(cmd, args);
  return EXIT.ok;
}
