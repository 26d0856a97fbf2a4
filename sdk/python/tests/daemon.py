"""The robotctl daemon these tests drive: its URL comes from ROBOT_DAEMON_URL
(test/sdk/sdk.test.ts starts one on a free port and runs these tests)."""

import json
import os
import unittest
import urllib.request


def daemon_url(case: unittest.TestCase) -> str:
    url = os.environ.get("ROBOT_DAEMON_URL")
    if not url:
        case.skipTest("needs a running daemon: set ROBOT_DAEMON_URL (robotctl daemon --sim --port 0)")
    return url


def full_state(url: str) -> dict:
    with urllib.request.urlopen(url + "/api/state/full", timeout=5) as resp:
        return json.loads(resp.read())
