// The receiver's error registry: one entry per answer it makes on its own
// (handlers' answers are theirs). Bodies match the official receiver where it
// has one (401, 403, 405); codes are for logs and the delivery record.
//
// | code                         | status | body                                          |
// |------------------------------|--------|-----------------------------------------------|
// | RCV_ERR_NOT_FOUND            | 404    | {"detail":"Not Found"}                        |
// | RCV_ERR_METHOD_NOT_ALLOWED   | 405    | {"detail":"Method Not Allowed"}               |
// | RCV_ERR_SECRET_MISSING       | 401    | {"error":"x-webhook-secret header not set."}  |
// | RCV_ERR_SECRET_INVALID       | 403    | {"error":"Invalid webhook secret."}           |
// | RCV_ERR_UNSUPPORTED_MEDIA    | 415    | {"error":"Content-Type must be application/json."} |
// | RCV_ERR_BODY_TOO_LARGE       | 413    | {"error":"Body larger than <n> bytes."}       |
// | RCV_ERR_BAD_JSON             | 400    | {"error":"Body is not valid JSON: <why>"}     |
// | RCV_ERR_INVALID_PAYLOAD      | 400    | {"error":"Invalid payload: <field> ..."}      |
// | RCV_ERR_CROSS_SITE           | 403    | {"error":"Cross-site request refused (<why>)."} |
// | RCV_ERR_HOST_NOT_ALLOWED     | 403    | {"error":"Host '<host>' is not allowed: … --allowed-host <name>."} (not on endpoints) |
// | RCV_ERR_HANDLER_FAILED       | 500    | {"error":"Internal error"}                    |
//
// The official receiver answers 422 for an invalid payload; we answer 400 (a
// client error the Hub shows in its Activity tab either way).

export interface ReceiverError {
  code: string;
  status: number;
  body: Record<string, string>;
}

function entry(code: string, status: number, body: Record<string, string>): ReceiverError {
  return { code, status, body };
}

export const receiverErrors = {
  notFound: (): ReceiverError => entry('RCV_ERR_NOT_FOUND', 404, { detail: 'Not Found' }),
  methodNotAllowed: (): ReceiverError => entry('RCV_ERR_METHOD_NOT_ALLOWED', 405, { detail: 'Method Not Allowed' }),
  secretMissing: (): ReceiverError => entry('RCV_ERR_SECRET_MISSING', 401, { error: 'x-webhook-secret header not set.' }),
  secretInvalid: (): ReceiverError => entry('RCV_ERR_SECRET_INVALID', 403, { error: 'Invalid webhook secret.' }),
  unsupportedMedia: (): ReceiverError =>
    entry('RCV_ERR_UNSUPPORTED_MEDIA', 415, { error: 'Content-Type must be application/json.' }),
  bodyTooLarge: (max: number): ReceiverError => entry('RCV_ERR_BODY_TOO_LARGE', 413, { error: `Body larger than ${max} bytes.` }),
  badJson: (why: string): ReceiverError => entry('RCV_ERR_BAD_JSON', 400, { error: `Body is not valid JSON: ${why}` }),
  invalidPayload: (why: string): ReceiverError => entry('RCV_ERR_INVALID_PAYLOAD', 400, { error: why }),
  crossSite: (why: string): ReceiverError => entry('RCV_ERR_CROSS_SITE', 403, { error: `Cross-site request refused (${why}).` }),
  hostNotAllowed: (message: string): ReceiverError => entry('RCV_ERR_HOST_NOT_ALLOWED', 403, { error: message }),
  handlerFailed: (): ReceiverError => entry('RCV_ERR_HANDLER_FAILED', 500, { error: 'Internal error' }),
};
