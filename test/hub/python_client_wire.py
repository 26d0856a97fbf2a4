#!/usr/bin/env python3
"""Wire conformance of the embedded hub with huggingface_hub (stdlib only).

Sends exactly the requests huggingface_hub 1.x and 0.2x send for the webhook
API and whoami (key order, the `null` fields of old clients, `watched: []` on
update, no body on enable/disable), and parses the answers the way the
client does, so a missing field fails here as it would fail in the client.

Usage: HF_ENDPOINT=http://127.0.0.1:PORT HF_TOKEN=... python3 python_client_wire.py
"""
import json
import os
import sys
import urllib.error
import urllib.request
from collections import OrderedDict

ENDPOINT = os.environ["HF_ENDPOINT"].rstrip("/")
TOKEN = os.environ["HF_TOKEN"]
UA_LIB = "unknown/None; hf_hub/1.29.0.dev0; python/3.11.2"
UA_CLI = "huggingface-cli/1.29.0.dev0; hf_hub/1.29.0.dev0; python/3.11.2"
UA_OLD = "unknown/None; hf_hub/0.24.0; python/3.11.2"


def call(method, path, body=None, token=TOKEN, ua=UA_LIB):
    headers = {"user-agent": ua}
    if token:
        headers["authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    req = urllib.request.Request(ENDPOINT + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req) as res:
            return res.status, res.headers, res.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def raise_for_status(status, headers, raw):
    """What hf_raise_for_status reads to build its message."""
    if status < 400:
        return
    parts = []
    if headers.get("X-Error-Message"):
        parts.append(headers["X-Error-Message"])
    try:
        body = json.loads(raw)
        err = body.get("error")
        if isinstance(err, list):
            parts.extend(err)
        elif err:
            parts.append(err)
    except ValueError:
        pass
    raise RuntimeError(f"{status}: {' / '.join(parts) or '(no message)'}")


class JobSpec:
    def __init__(self, **kwargs):
        self.docker_image = kwargs.get("dockerImage") or kwargs.get("docker_image")
        self.space_id = kwargs.get("spaceId") or kwargs.get("space_id")
        self.command = kwargs.get("command")
        volumes = kwargs.get("volumes")
        self.volumes = [(v["source"], v["mountPath"]) for v in volumes] if volumes else None


def webhook_info(data, old_client=False):
    """WebhookInfo as hf_api.py builds it (old clients read url with [])."""
    watched = [(item["type"], item["name"]) for item in data["watched"]]
    url = data["url"] if old_client else data.get("url")
    job = JobSpec(**data["job"]) if data.get("job") else None
    assert isinstance(data["id"], str) and data["id"]
    assert isinstance(data["domains"], list)
    assert isinstance(data["disabled"], bool)
    assert (url is None) != (job is None), "one of url or job, not both"
    return {"id": data["id"], "url": url, "job": job, "watched": watched, "domains": data["domains"], "secret": data.get("secret"), "disabled": data["disabled"]}


def ok(status, headers, raw):
    raise_for_status(status, headers, raw)
    return json.loads(raw) if raw else None


def main():
    checks = 0
    # Agent detection side request: unauthenticated, a 404 is harmless.
    status, _, _ = call("GET", "/api/agent-harnesses", token=None)
    assert status < 500, status

    me = ok(*call("GET", "/api/whoami-v2"))
    assert isinstance(me["name"], str) and me["type"] == "user" and "auth" in me
    status, headers, raw = call("GET", "/api/whoami-v2", token="hf_invalid")
    assert status == 401 and headers.get("X-Error-Message"), status
    checks += 2

    watched = [OrderedDict([("type", "user"), ("name", me["name"])])]
    # huggingface_hub >= 1.6: only the keys given, in this order.
    body = OrderedDict([("watched", watched), ("domains", ["repo", "discussion"]), ("secret", "my-secret"), ("url", "https://example.org/h")])
    new = webhook_info(ok(*call("POST", "/api/settings/webhooks", body))["webhook"])
    assert new["secret"] == "my-secret" and new["domains"] == ["repo", "discussion"]
    # The CLI's plural domain.
    cli = webhook_info(ok(*call("POST", "/api/settings/webhooks", OrderedDict([("watched", watched), ("domains", ["discussions"]), ("url", "https://example.org/c")]), ua=UA_CLI))["webhook"])
    # 0.24 – 1.5: every key, null when unset.
    old = webhook_info(ok(*call("POST", "/api/settings/webhooks", OrderedDict([("watched", watched), ("url", "https://example.org/o"), ("domains", None), ("secret", None)]), ua=UA_OLD))["webhook"], old_client=True)
    assert old["domains"] == [] and old["secret"] is None
    # Job webhook (>= 0.36).
    job = webhook_info(ok(*call("POST", "/api/settings/webhooks", OrderedDict([("watched", watched), ("jobSourceId", "687fb701029421ae5549d998")])))["webhook"], old_client=True)
    assert job["url"] is None and job["job"] is not None
    checks += 4

    listed = ok(*call("GET", "/api/settings/webhooks"))
    assert isinstance(listed, list), "list must be a bare array"
    ids = {webhook_info(w, old_client=True)["id"] for w in listed}
    assert {new["id"], cli["id"], old["id"], job["id"]} <= ids
    got = webhook_info(ok(*call("GET", f"/api/settings/webhooks/{new['id']}"))["webhook"])
    assert got == new
    checks += 2

    # CLI `hf webhooks update ID --url X` sends watched: [] meaning unchanged.
    upd = webhook_info(ok(*call("POST", f"/api/settings/webhooks/{new['id']}", OrderedDict([("watched", []), ("url", "https://example.org/u")]), ua=UA_CLI))["webhook"])
    assert upd["url"] == "https://example.org/u" and upd["watched"] == new["watched"] and upd["secret"] == "my-secret"
    upd_old = webhook_info(ok(*call("POST", f"/api/settings/webhooks/{old['id']}", OrderedDict([("watched", watched), ("url", None), ("domains", None), ("secret", None)]), ua=UA_OLD))["webhook"], old_client=True)
    assert upd_old["url"] == "https://example.org/o"
    checks += 2

    # enable / disable: POST without body or content-type.
    dis = webhook_info(ok(*call("POST", f"/api/settings/webhooks/{new['id']}/disable"))["webhook"])
    ena = webhook_info(ok(*call("POST", f"/api/settings/webhooks/{new['id']}/enable"))["webhook"])
    assert dis["disabled"] is True and ena["disabled"] is False
    checks += 2

    for hook in (new, cli, old, job):
        status, headers, raw = call("DELETE", f"/api/settings/webhooks/{hook['id']}")
        raise_for_status(status, headers, raw)
    status, headers, raw = call("GET", f"/api/settings/webhooks/{new['id']}")
    assert status == 404
    try:
        raise_for_status(status, headers, raw)
    except RuntimeError as err:
        assert "not found" in str(err), err
    status, headers, raw = call("POST", "/api/settings/webhooks", OrderedDict([("watched", watched), ("url", "https://x"), ("jobSourceId", "j")]))
    assert status == 400 and json.loads(raw)["error"]
    status, _, _ = call("GET", "/api/settings/webhooks", token=None)
    assert status == 401
    checks += 4
    print(f"OK {checks} checks")


if __name__ == "__main__":
    try:
        main()
    except (AssertionError, KeyError, RuntimeError) as err:
        print(f"FAIL {type(err).__name__}: {err}", file=sys.stderr)
        sys.exit(1)
