# The receiver huggingface_hub's WebhooksServer builds, without gradio: a
# FastAPI POST route that checks X-Webhook-Secret and has the body parsed into
# a pydantic WebhookPayload, served by uvicorn. Binds port 0 itself and prints
# the port (and the versions in use), so the benchmark never races for one.
import socket
import sys
from typing import List, Optional

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

SECRET = sys.argv[1]


class ObjectId(BaseModel):
    id: str


class Url(BaseModel):
    web: str
    api: Optional[str] = None


class Event(BaseModel):
    action: str
    scope: str


class Repo(ObjectId):
    owner: ObjectId
    head_sha: Optional[str] = None
    name: str
    private: bool
    subdomain: Optional[str] = None
    tags: Optional[List[str]] = None
    type: str
    url: Url


class Webhook(BaseModel):
    id: str
    version: int


class UpdatedRef(BaseModel):
    ref: str
    oldSha: Optional[str] = None
    newSha: Optional[str] = None


class WebhookPayload(BaseModel):
    event: Event
    repo: Repo
    webhook: Webhook
    updatedRefs: Optional[List[UpdatedRef]] = None


app = FastAPI()


@app.post("/webhooks/bench")
async def bench(payload: WebhookPayload, request: Request):
    secret = request.headers.get("x-webhook-secret")
    if secret is None:
        return JSONResponse({"error": "x-webhook-secret header not set."}, status_code=401)
    if secret != SECRET:
        return JSONResponse({"error": "Invalid webhook secret."}, status_code=403)
    return {"repo": payload.repo.name}


# IPPROTO_TCP as uvicorn's own sockets have it (getaddrinfo): asyncio sets
# TCP_NODELAY only on a socket whose proto says TCP, and without it Nagle held
# each answer's body (a second small write) until the client's delayed ACK,
# about 40 ms per request per connection.
sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("127.0.0.1", 0))
# Listening before the port is printed: a client that connects at once waits
# in the backlog until uvicorn accepts, instead of being refused.
sock.listen(2048)
import fastapi, pydantic  # noqa: E401  (their versions go in the figure's note)
print(sock.getsockname()[1], f"fastapi {fastapi.__version__}, pydantic {pydantic.VERSION}, uvicorn {uvicorn.__version__}", flush=True)
uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False)).run(sockets=[sock])
