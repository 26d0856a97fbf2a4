import type { Command } from 'commander';
import type { Io } from '../../lib/io.js';
import { UsageError } from '../../lib/errors.js';
import { newCommand, parse, subCommand } from '../command.js';
import { HubError } from '../../drivers/hub/errors.js';
import type { HubClient, HubWebhook, WebhookInput } from '../../drivers/hub/types.js';
import type { WatchedItem, WebhookDomain } from '../../lib/wire/hub.js';
import { checkExclusiveFormats, chooseFormat, FORMAT_CHOICES } from './webhooks/format.js';
import { newWebhooksView, type WebhooksView } from '../views/webhooks-view.js';
import { collect, parseDomain, parseWatch, uniqueDomains } from './webhooks/options.js';
import { cliHubClient, requireToken } from './webhooks/client.js';
import { refusedTokenHint, withTokenOptions, type TokenFlags } from '../session/token-flags.js';
import { SENSITIVE } from '../../lib/sensitive.js';
import { EXIT } from '../exit-codes.js';
import { commandLine } from '../views/command-line.js';

// `robotctl webhooks`: the commands, options, output and messages of `hf webhooks` (spec §2).

interface CommonOpts extends TokenFlags { format?: string; json?: boolean; quiet?: boolean; truncate?: boolean }
interface EditOpts extends CommonOpts { url?: string; jobId?: string; watch?: WatchedItem[]; domain?: WebhookDomain[]; secret?: string }

function common(cmd: Command): Command {
  return withTokenOptions(cmd, 'Hub token (default: HF_TOKEN, then the token file)')
    .option('--format <format>', `Output format: ${FORMAT_CHOICES.join('|')}`)
    .option('--json', 'Same as --format json')
    .option('-q, --quiet', 'Same as --format quiet: ids only')
    .option('--no-truncate', 'Do not shorten table cells to the terminal width');
}

/** The view of this command, chosen once from --format/--json/-q. */
function viewFor(io: Io, o: CommonOpts): WebhooksView {
  if (o.format !== undefined && !(FORMAT_CHOICES as readonly string[]).includes(o.format)) {
    throw new UsageError(`Invalid value for '--format': '${o.format}' is not one of ${FORMAT_CHOICES.map((c) => `'${c}'`).join(', ')}.`);
  }
  return newWebhooksView(chooseFormat(o, io.env), io, { truncate: o.truncate !== false });
}

/** Run one hub call; hub errors print `Error: …` + hint and exit 1. */
async function withHub<T>(io: Io, token: string, view: WebhooksView, fn: (hub: HubClient) => Promise<T>): Promise<T> {
  const hub = cliHubClient(io, token);
  try {
    return await fn(hub);
  } catch (err) {
    if (err instanceof HubError) {
      if (io.env.HF_DEBUG) io.err(`${err.stack ?? err.message}\n`);
      view.fail(err.status === 401 ? `${err.message}\n${refusedTokenHint(io)}` : err.message);
    }
    throw err;
  } finally {
    await hub.close();
  }
}

function infoView(w: HubWebhook, showSecret: boolean): Record<string, unknown> {
  const job = w.job ? jobSpecView(w.job) : null;
  const secret = w.secret === null ? null : showSecret ? w.secret : SENSITIVE;
  return { id: w.id, url: w.url, job, watched: w.watched, domains: w.domains, secret, disabled: w.disabled };
}

/** The client's JobSpec fields, snake_case, from the hub's camelCase job object. */
function jobSpecView(job: Record<string, unknown>): Record<string, unknown> {
  const pick = (camel: string, snake: string) => job[camel] ?? job[snake] ?? null;
  return {
    docker_image: pick('dockerImage', 'docker_image'), space_id: pick('spaceId', 'space_id'), command: pick('command', 'command'),
    arguments: pick('arguments', 'arguments'), environment: pick('environment', 'environment'), secrets: pick('secrets', 'secrets'),
    flavor: pick('flavor', 'flavor'), timeout: pick('timeout', 'timeout'), tags: pick('tags', 'tags'), arch: pick('arch', 'arch'),
    labels: pick('labels', 'labels'), volumes: pick('volumes', 'volumes'),
  };
}

function usageError(io: Io, name: string, message: string): UsageError {
  const command = commandLine(io);
  return new UsageError(`${message}\nUsage: ${command(`webhooks ${name} [options]`)}\nTry '${command(`webhooks ${name} --help`)}' for help.`);
}

function createInput(io: Io, o: EditOpts): WebhookInput {
  if (o.url !== undefined && o.jobId !== undefined) throw usageError(io, 'create', 'Invalid value: Provide either --url or --job-id, not both.');
  if (o.url === undefined && o.jobId === undefined) throw usageError(io, 'create', 'Invalid value: Provide either --url or --job-id.');
  if (!o.watch || o.watch.length === 0) throw usageError(io, 'create', "Missing option '--watch'.");
  const input: WebhookInput = { watched: o.watch };
  const domains = uniqueDomains(o.domain);
  if (domains) input.domains = domains;
  if (o.secret !== undefined) input.secret = o.secret;
  if (o.url !== undefined) input.url = o.url; else if (o.jobId !== undefined) input.jobSourceId = o.jobId;
  return input;
}

export async function run(args: string[], io: Io): Promise<number> {
  checkExclusiveFormats(args);
  const root = newCommand('webhooks', io).description('Manage webhooks on the Hub.');
  const leaf = (name: string, summary: string) => common(subCommand(root, name, io).description(summary));

  leaf('ls', 'List your webhooks.').alias('list').action(async (o: CommonOpts) => {
    const view = viewFor(io, o);
    const hooks = await withHub(io, requireToken(io, o), view, (hub) => hub.listWebhooks());
    view.table(hooks.map((w) => ({
      id: w.id, url: w.url ?? '(job)', disabled: w.disabled, domains: w.domains, watched: w.watched.map((i) => `${i.type}:${i.name}`),
    })));
  });

  leaf('info', 'Show one webhook (the secret is masked unless --show-secret).').argument('<webhook_id>')
    .option('--show-secret', 'Print the secret in clear')
    .action(async (id: string, o: CommonOpts & { showSecret?: boolean }) => {
      const view = viewFor(io, o);
      const w = await withHub(io, requireToken(io, o), view, (hub) => hub.getWebhook(id));
      view.record(infoView(w, o.showSecret === true));
    });

  const edit = (cmd: Command) => cmd
    .option('--url <url>', 'URL the hub POSTs events to')
    .option('--watch <type:name>', 'Watched item, repeatable (types: dataset, model, org, space, user)', collect(parseWatch))
    .option('--domain <domain>', 'repo | discussion (or discussions), repeatable', collect(parseDomain))
    .option('--secret <secret>', 'Sent as the X-Webhook-Secret header');

  edit(leaf('create', 'Create a webhook.')).option('--job-id <id>', 'Run this job instead of calling a URL')
    .action(async (o: EditOpts) => {
      const view = viewFor(io, o);
      const input = createInput(io, o);
      const w = await withHub(io, requireToken(io, o), view, (hub) => hub.createWebhook(input));
      view.result('Webhook created', { id: w.id });
    });

  edit(leaf('update', 'Update a webhook: only the options given change (--watch replaces the list).')).argument('<webhook_id>')
    .action(async (id: string, o: EditOpts) => {
      const view = viewFor(io, o);
      const input: Partial<WebhookInput> & { watched: WatchedItem[] } = { watched: o.watch ?? [] };
      if (o.url !== undefined) input.url = o.url;
      const domains = uniqueDomains(o.domain);
      if (domains) input.domains = domains;
      if (o.secret !== undefined) input.secret = o.secret;
      const w = await withHub(io, requireToken(io, o), view, (hub) => hub.updateWebhook(id, input));
      view.result('Webhook updated', { id: w.id });
    });

  for (const [verb, label] of [['enable', 'enabled'], ['disable', 'disabled']] as const) {
    leaf(verb, `${verb === 'enable' ? 'Enable' : 'Disable'} a webhook.`).argument('<webhook_id>').action(async (id: string, o: CommonOpts) => {
      const view = viewFor(io, o);
      const w = await withHub(io, requireToken(io, o), view, (hub) => (verb === 'enable' ? hub.enableWebhook(id) : hub.disableWebhook(id)));
      view.result(`Webhook ${label}`, { id: w.id });
    });
  }

  leaf('delete', 'Delete a webhook (asks first unless --yes).').argument('<webhook_id>').option('-y, --yes', 'Do not ask for confirmation')
    .action(async (id: string, o: CommonOpts & { yes?: boolean }) => {
      const view = viewFor(io, o);
      const token = requireToken(io, o); // a missing token fails before the question
      await view.confirm(`Are you sure you want to delete webhook '${id}'?`, o.yes === true);
      await withHub(io, token, view, (hub) => hub.deleteWebhook(id));
      view.result('Webhook deleted', { id });
    });

  await parse(root, args);
  return EXIT.ok;
}
