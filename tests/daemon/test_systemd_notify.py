"""sd_notify over a real unix datagram socket: what systemd would read from the daemon."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.daemon import Daemon
from pbem.daemon.notify import SystemdNotifier
from pbem.settings import Settings


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    """A datagram socket bound where $NOTIFY_SOCKET would point, as systemd binds it."""
    path = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(path)
    listener.settimeout(0.2)
    yield path, listener
    listener.close()


def received(listener: socket.socket) -> list[str]:
    messages = []
    while True:
        try:
            messages.append(listener.recv(4096).decode())
        except TimeoutError:
            return messages


def test_ready_status_and_stopping_arrive_as_datagrams(
    notify_socket: tuple[str, socket.socket],
) -> None:
    path, listener = notify_socket
    notifier = SystemdNotifier.from_env({"NOTIFY_SOCKET": path})
    notifier.ready()
    notifier.status("received 1, sent 2")
    notifier.stopping()
    notifier.close()
    assert received(listener) == [
        "READY=1\nSTATUS=started",
        "STATUS=received 1, sent 2",
        "STOPPING=1\nSTATUS=stopping",
    ]


def test_the_watchdog_is_fed_every_half_period_not_more(
    notify_socket: tuple[str, socket.socket],
) -> None:
    path, listener = notify_socket
    clock = FakeClock()
    notifier = SystemdNotifier(path, watchdog_seconds=10.0, clock=clock)
    for _ in range(30):  # asked every second for 30 s
        notifier.alive()
        clock.now += 1.0
    notifier.close()
    assert received(listener) == ["WATCHDOG=1"] * 6


def test_an_abstract_socket_name_is_used_as_such() -> None:
    name = f"pbem-test-{os.getpid()}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind("\0" + name)
    listener.settimeout(0.2)
    try:
        notifier = SystemdNotifier(f"@{name}")
        assert notifier.notify("READY=1")
        notifier.close()
        assert received(listener) == ["READY=1"]
    finally:
        listener.close()


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"NOTIFY_SOCKET": "/nonexistent/notify"},
        {"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"},
    ],
)
def test_without_systemd_nothing_is_sent_and_nothing_fails(env: dict[str, str]) -> None:
    notifier = SystemdNotifier.from_env(env)
    assert not notifier.notify("READY=1")
    notifier.alive()
    notifier.close()


def test_watchdog_usec_for_another_process_is_not_ours() -> None:
    env = {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"}
    assert SystemdNotifier.from_env(env).watchdog_seconds is None
    env["WATCHDOG_PID"] = str(os.getpid())
    assert SystemdNotifier.from_env(env).watchdog_seconds == 4.0


def test_the_daemon_says_ready_feeds_the_watchdog_while_waiting_and_says_stopping(
    tmp_path: Path, notify_socket: tuple[str, socket.socket]
) -> None:
    path, listener = notify_socket
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/pbem.sqlite3", maildir=str(tmp_path / "mail")
    )
    daemon = Daemon(settings, notifier=SystemdNotifier(path, watchdog_seconds=1.0))
    thread = threading.Thread(target=daemon.serve, kwargs={"wait_seconds": 300})
    thread.start()
    time.sleep(3.0)  # waiting for mail all along
    daemon.stop()
    thread.join(10)

    messages = received(listener)
    assert messages[0] == "READY=1\nSTATUS=started"
    assert messages[-1] == "STOPPING=1\nSTATUS=stopping"
    assert any(message.startswith("STATUS=received 0, sent 0") for message in messages)
    assert messages.count("WATCHDOG=1") >= 4  # every half second while idle
