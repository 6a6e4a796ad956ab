"""A small OAuth2 authorization server for tests, on 127.0.0.1 and a free port.

`POST /token` answers the refresh grant (RFC 6749 section 6): a known refresh token gets a new
access token (and, with `rotate=True`, a new refresh token); anything else gets 400
invalid_grant. `POST /introspect` is RFC 7662 token introspection, which Dovecot's oauth2 passdb
asks (introspection_mode = post): `{"active": true, "username": ...}` for a token it issued that
has not expired, `{"active": false}` otherwise.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from tests.support.dovecot import HOST

TOKEN_LIFETIME = 3600


@dataclass
class TokenRecord:
    """What the server remembers, and what the tests look at."""

    refresh_tokens: dict[str, str] = field(default_factory=dict)
    """refresh token -> user"""
    access_tokens: dict[str, tuple[str, float]] = field(default_factory=dict)
    """access token -> (user, expires at)"""
    refresh_requests: list[dict[str, str]] = field(default_factory=list)
    introspections: list[str] = field(default_factory=list)
    """The tokens Dovecot (or anyone) asked about, in order."""


class OAuthServer:
    def __init__(self, client_id: str = "pbem-test", rotate: bool = False) -> None:
        self.client_id = client_id
        self.rotate = rotate
        self.record = TokenRecord()
        self._lock = threading.Lock()
        self._http = ThreadingHTTPServer((HOST, 0), _handler_for(self))
        self.port = int(self._http.server_address[1])
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    @property
    def token_url(self) -> str:
        return f"http://{HOST}:{self.port}/token"

    @property
    def introspection_url(self) -> str:
        return f"http://{HOST}:{self.port}/introspect"

    def issue_refresh_token(self, user: str) -> str:
        token = secrets.token_urlsafe(16)
        with self._lock:
            self.record.refresh_tokens[token] = user
        return token

    def token_answer(self, form: dict[str, str]) -> tuple[int, dict[str, object]]:
        with self._lock:
            self.record.refresh_requests.append(form)
            user = self.record.refresh_tokens.get(form.get("refresh_token", ""))
            if (
                form.get("grant_type") != "refresh_token"
                or form.get("client_id") != self.client_id
                or user is None
            ):
                return 400, {"error": "invalid_grant", "error_description": "unknown token"}
            access = secrets.token_urlsafe(24)
            self.record.access_tokens[access] = (user, time.time() + TOKEN_LIFETIME)
            answer: dict[str, object] = {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": TOKEN_LIFETIME,
            }
            if self.rotate:
                del self.record.refresh_tokens[form["refresh_token"]]
                renewed = secrets.token_urlsafe(16)
                self.record.refresh_tokens[renewed] = user
                answer["refresh_token"] = renewed
            return 200, answer

    def user_of(self, token: str) -> str | None:
        """The user an access token was issued to, while it is valid."""
        with self._lock:
            self.record.introspections.append(token)
            user, expires_at = self.record.access_tokens.get(token, ("", 0.0))
        return user if user and expires_at > time.time() else None

    def introspection_answer(self, form: dict[str, str]) -> tuple[int, dict[str, object]]:
        user = self.user_of(form.get("token", ""))
        return 200, {"active": True, "username": user} if user else {"active": False}

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._http.shutdown()
        self._http.server_close()


def _handler_for(server: OAuthServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length).decode()
            form = {key: values[0] for key, values in parse_qs(body).items()}
            if self.path == "/token":
                status, answer = server.token_answer(form)
            elif self.path == "/introspect":
                status, answer = server.introspection_answer(form)
            else:
                status, answer = 404, {"error": "not_found"}
            payload = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the record says what was asked."""

    return Handler


@contextmanager
def running_oauth_server(rotate: bool = False) -> Iterator[OAuthServer]:
    server = OAuthServer(rotate=rotate)
    server.start()
    try:
        yield server
    finally:
        server.stop()
