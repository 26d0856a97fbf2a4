import { DISCUSSION_STATUSES, PAYLOAD_REPO_TYPES, WEBHOOK_ACTIONS } from './payload.js';

// JSON Schema of WebhookPayload. Like the official receiver: unknown extra
// fields are accepted everywhere; optional fields may also be null (pydantic
// `Optional`), and only the fields it models are checked.

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const optStr: Schema = { type: ['string', 'null'] };

function object(required: Record<string, Schema>, optional: Record<string, Schema> = {}): Schema {
  return {
    type: 'object',
    required: Object.keys(required),
    properties: { ...required, ...optional },
  };
}

// `required` and `properties` only apply to objects, so widening the type is
// enough and keeps ajv's first error about the field itself.
function nullable(schema: Schema): Schema {
  return { ...schema, type: ['object', 'null'] };
}

const objectId = object({ id: str });
const url = object({ web: str }, { api: optStr });

const repo = object(
  {
    type: { type: 'string', enum: [...PAYLOAD_REPO_TYPES] },
    name: str,
    id: str,
    private: { type: 'boolean' },
    url,
    owner: objectId,
  },
  { headSha: optStr, subdomain: optStr, tags: { type: ['array', 'null'], items: str } },
);

const discussion = object(
  {
    id: str,
    num: { type: 'integer' },
    author: objectId,
    url,
    title: str,
    isPullRequest: { type: 'boolean' },
    status: { type: 'string', enum: [...DISCUSSION_STATUSES] },
  },
  { changes: nullable(object({ base: str }, { mergeCommitId: optStr })), pinned: { type: ['boolean', 'null'] } },
);

const comment = object({ id: str, author: objectId, hidden: { type: 'boolean' }, url }, { content: optStr });

const updatedRef = object({ ref: str }, { oldSha: optStr, newSha: optStr });

export const PAYLOAD_SCHEMA_ID = 'https://robotctl.dev/schema/webhook-payload.json';

export const payloadSchema: Schema = {
  $id: PAYLOAD_SCHEMA_ID,
  ...object(
    {
      event: object({ action: { type: 'string', enum: [...WEBHOOK_ACTIONS] }, scope: str }),
      repo,
      webhook: object({ id: str, version: { const: 3 } }),
    },
    {
      discussion: nullable(discussion),
      comment: nullable(comment),
      movedTo: nullable(object({ name: str, owner: objectId })),
      updatedRefs: { type: ['array', 'null'], items: updatedRef },
      updatedConfig: { type: ['object', 'null'] },
    },
  ),
};
