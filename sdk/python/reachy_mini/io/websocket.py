"""A small RFC 6455 WebSocket client on the standard library (text frames).

The real SDK uses the ``websockets`` package; this stand-in must install with
no package index, so it speaks the protocol itself: client frames are masked,
server frames are not; fragments are joined; pings are answered; a close frame
ends ``recv()``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import socket
import struct
import threading
from typing import Optional, Tuple

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
MAX_FRAME = 16 * 1024 * 1024


class HandshakeError(ConnectionError):
    """The server refused the WebSocket upgrade."""


def _mask(payload: bytes, key: bytes) -> bytes:
    if not payload:
        return payload
    n = len(payload)
    keys = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(keys, "big")).to_bytes(n, "big")


class WebSocket:
    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._rfile = sock.makefile("rb")
        self._send_lock = threading.Lock()
        self.closed = False
        # The server's side ended (its close frame, end of stream or an error): nothing more to read.
        self.ended = False

    @classmethod
    def connect(cls, host: str, port: int, path: str, timeout: float = 5.0) -> "WebSocket":
        sock = socket.create_connection((host, port), timeout=timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        hostport = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        sock.sendall(request.encode())
        ws = cls(sock)
        status, headers = ws._read_response()
        if status != 101:
            sock.close()
            raise HandshakeError(f"WebSocket upgrade to ws://{hostport}{path} refused: HTTP {status}")
        expected = base64.b64encode(hashlib.sha1((key + _GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != expected:
            sock.close()
            raise HandshakeError("WebSocket upgrade answered with a wrong Sec-WebSocket-Accept")
        sock.settimeout(None)
        return ws

    def _read_response(self) -> Tuple[int, dict]:
        line = self._rfile.readline(65536).decode("latin-1")
        parts = line.split(" ", 2)
        if len(parts) < 2 or not parts[1].isdigit():
            raise HandshakeError(f"not an HTTP answer: {line.strip()!r}")
        headers = {}
        while True:
            h = self._rfile.readline(65536).decode("latin-1").strip()
            if not h:
                break
            name, _, value = h.partition(":")
            headers[name.strip().lower()] = value.strip()
        return int(parts[1]), headers

    # -- sending -----------------------------------------------------------
    def _send_frame(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        key = os.urandom(4)
        with self._send_lock:
            self._sock.sendall(header + key + _mask(payload, key))

    def send(self, text: str) -> None:
        if self.closed:
            raise ConnectionError("WebSocket is closed")
        self._send_frame(OP_TEXT, text.encode("utf-8"))

    # -- receiving ---------------------------------------------------------
    def _read_exact(self, n: int) -> bytes:
        data = self._rfile.read(n)
        if data is None or len(data) < n:
            raise ConnectionError("connection closed by the server")
        return data

    def _read_frame(self) -> Tuple[bool, int, bytes]:
        b1, b2 = self._read_exact(2)
        n = b2 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._read_exact(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._read_exact(8))[0]
        if n > MAX_FRAME:
            raise ConnectionError(f"frame of {n} bytes is too large")
        key = self._read_exact(4) if b2 & 0x80 else b""
        payload = self._read_exact(n)
        return bool(b1 & 0x80), b1 & 0x0F, _mask(payload, key) if key else payload

    def recv(self) -> Optional[str]:
        """The next text (or UTF-8 binary) message; None once the connection is closed."""
        parts: list = []
        # Read on after close() until the server ends its side: see close().
        while not self.ended:
            try:
                fin, opcode, payload = self._read_frame()
            except (OSError, ConnectionError, ValueError):
                self.closed = self.ended = True
                return None
            if opcode == OP_PING:
                if not self.closed:
                    self._reply(OP_PONG, payload)
            elif opcode == OP_CLOSE:
                if not self.closed:
                    self._reply(OP_CLOSE, payload[:2])
                self.closed = self.ended = True
                return None
            elif opcode in (OP_TEXT, OP_BINARY, OP_CONT):
                parts.append(payload)
                if fin:
                    return b"".join(parts).decode("utf-8", errors="replace")
        return None

    def _reply(self, opcode: int, payload: bytes) -> None:
        try:
            self._send_frame(opcode, payload)
        except OSError:
            pass

    def close(self) -> None:
        """Start the closing handshake: our close frame, then the end of our stream.

        The socket stays open for reading until the server ends its side
        (recv() returns None, then release()). Closing it at once, with state
        frames still unread, makes the kernel reset the connection, and a
        reset makes the server's kernel drop what it had received from us but
        not yet handed to the daemon: the last commands an app sent before
        closing could be lost (RFC 6455 7.1.1: the server closes the TCP
        connection first).
        """
        if not self.closed:
            self.closed = True
            self._reply(OP_CLOSE, struct.pack("!H", 1000))
        try:
            self._sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def release(self) -> None:
        """Close the socket (after close(), once recv() returned None or waiting for it timed out)."""
        self.closed = self.ended = True
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
