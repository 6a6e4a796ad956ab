"""A TCP relay on 127.0.0.1 in front of a real server, keeping every line the client sent, so a
test can count the IMAP commands a client really issued (IDLE, NOOP, DONE) over some time."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from tests.support.dovecot import HOST

CHUNK = 65536


class CommandRelay:
    """Forwards 127.0.0.1:`port` to `upstream`; `lines()` is what clients sent, in order."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self._listener = socket.create_server((HOST, 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._lines: list[bytes] = []
        self._sockets: list[socket.socket] = []
        self._threads: list[threading.Thread] = []
        self._closing = False

    def start(self) -> None:
        self._spawn(self._accept)

    def lines(self) -> list[bytes]:
        with self._lock:
            return list(self._lines)

    def count(self, command: str) -> int:
        """Client lines naming `command` after their tag (or alone, as DONE is sent)."""
        wanted = command.upper().encode()
        return sum(
            1 for line in self.lines() if wanted in [word.upper() for word in line.split()[:2]]
        )

    def stop(self) -> None:
        self._closing = True
        self._listener.close()
        with self._lock:
            sockets = list(self._sockets)
        for sock in sockets:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        for thread in self._threads:
            thread.join(5)

    def _spawn(self, target: object, *args: object) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)  # type: ignore[arg-type]
        self._threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            with self._lock:
                self._sockets += [client, server]
            self._spawn(self._pump, client, server, True)
            self._spawn(self._pump, server, client, False)

    def _pump(self, source: socket.socket, target: socket.socket, record: bool) -> None:
        pending = b""
        while True:
            try:
                data = source.recv(CHUNK)
                if not data:
                    break
                target.sendall(data)
            except OSError:
                break
            if record:
                pending += data
                *complete, pending = pending.split(b"\r\n")
                with self._lock:
                    self._lines.extend(complete)
        with suppress(OSError):
            target.shutdown(socket.SHUT_WR)


@contextmanager
def command_relay(host: str, port: int) -> Iterator[CommandRelay]:
    relay = CommandRelay((host, port))
    relay.start()
    try:
        yield relay
    finally:
        relay.stop()
