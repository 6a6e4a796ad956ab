"""The benchmarks' SMTP server (aiosmtpd, timestamping what it accepts) in a process of its own,
as a real mail server is: in the benchmark's process its parsing of every email shared one
interpreter lock with pbem (or with a floor loop) and was charged to it, and a pbem that sends
from a process of its own (pbem.daemon.sending) waited on the lock for every SMTP answer.

The benchmark asks it over a pipe for what it received since the last question.
"""

from __future__ import annotations

import multiprocessing
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection

from bench.arrivals import Arrival, TimedHandler
from tests.support.dovecot import HOST, free_port
from tests.support.smtpd import ReceivedMail, SmtpServer

START_TIMEOUT = 10.0
WAIT_STEP = 0.01
STOP = "stop"


class SmtpProcess:
    """host, port, url(), received() and wait_for() as tests.support.smtpd.SmtpServer has."""

    def __init__(self) -> None:
        self.host, self.port = HOST, free_port()
        context = multiprocessing.get_context("spawn")
        self._questions, answers = context.Pipe()
        self._process = context.Process(target=_serve, args=(self.port, answers), daemon=True)
        self._process.start()
        self._received: list[ReceivedMail] = []
        self._arrivals: list[Arrival] = []
        deadline = time.monotonic() + START_TIMEOUT
        while not _listening(self.host, self.port):
            if time.monotonic() > deadline or not self._process.is_alive():
                raise RuntimeError("the benchmark's SMTP server did not start")
            time.sleep(WAIT_STEP)

    def url(self) -> str:
        return f"smtp://{self.host}:{self.port}"

    def received(self) -> list[ReceivedMail]:
        self._catch_up()
        return list(self._received)

    def arrivals(self) -> list[Arrival]:
        self._catch_up()
        return list(self._arrivals)

    def wait_for(self, count: int, timeout: float = 5.0) -> list[ReceivedMail]:
        deadline = time.monotonic() + timeout
        while len(received := self.received()) < count and time.monotonic() < deadline:
            time.sleep(WAIT_STEP)
        return received

    def stop(self) -> None:
        self._questions.send(STOP)
        self._process.join()

    def _catch_up(self) -> None:
        self._questions.send((len(self._received), len(self._arrivals)))
        received, arrivals = self._questions.recv()
        self._received.extend(received)
        self._arrivals.extend(arrivals)


@contextmanager
def running_smtp_process() -> Iterator[SmtpProcess]:
    server = SmtpProcess()
    try:
        yield server
    finally:
        server.stop()


def _serve(port: int, answers: Connection) -> None:
    """The server's process: answer each question (how many messages and arrivals the benchmark
    has) with the rest."""
    server = SmtpServer()
    server.port = port
    handler = TimedHandler()
    server.handler = handler
    server.start()
    try:
        while (known := answers.recv()) != STOP:
            mail, arrivals = known
            answers.send((server.received()[mail:], handler.arrivals[arrivals:]))
    finally:
        server.stop()


def _listening(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1.0).close()
    except OSError:
        return False
    return True
