"""A real Dovecot IMAP server for tests: 127.0.0.1, a free port, a temporary Maildir per user.

Dovecot will not deliver mail as root, so when the tests run as root the whole instance runs as
`nobody` (via setpriv) from a temporary directory that `nobody` owns; otherwise it runs as the
current user. Its first login of a user creates that user's Maildir.
"""

from __future__ import annotations

import grp
import imaplib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from base64 import b64encode
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.support.certs import SelfSignedCa
from tests.support.procfs import all_proc_stats

DOVECOT = Path("/usr/sbin/dovecot")
SETPRIV = "setpriv"
HOST = "127.0.0.1"
# Not "/", so the tests see the intake translate folder names to the server's separator.
SEPARATOR = "."
START_TIMEOUT = 10.0
STOP_TIMEOUT = 10.0
# A password that needs percent-encoding in a URL, so the tests cover the decoding too.
DEFAULT_USERS: Mapping[str, str] = {"moderator": "mod p@ss/1", "alice": "alice-secret"}

CONFIG_TEMPLATE = """\
protocols = imap
listen = {host}
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
{ssl_settings}
disable_plaintext_auth = no
auth_mechanisms = plain login{oauth_mechanisms}
auth_failure_delay = 0
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {user}
mail_location = maildir:{root}/mail/%u
{oauth_passdb}passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {root}/users
  default_fields = uid={user} gid={group} home={root}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = {host}
    port = {port}
  }}
  inet_listener imaps {{
    address = {host}
    port = {tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
{penalty_line}
}}
namespace inbox {{
  inbox = yes
  separator = {separator}
}}
{capability_line}
"""
SSL_SETTINGS = """\
ssl = yes
ssl_cert = <{root}/server.pem
ssl_key = <{root}/server.key
"""
# Dovecot 2.3's oauth2 passdb asks the test's introspection endpoint about each token
# (introspection_mode = post: the token in a form field), and takes the login when the answer
# says the token is active and names the same user.
OAUTH_PASSDB = """\
passdb {{
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = {root}/dovecot-oauth2.conf.ext
}}
"""
OAUTH_SETTINGS = """\
introspection_mode = post
introspection_url = {introspection_url}
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
"""


class DovecotUnavailable(RuntimeError):
    """Dovecot is not installed or would not start; the message says how to fix it."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class _RunAs:
    user: str
    group: str
    uid: int
    gid: int


def _run_as() -> _RunAs:
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        return _RunAs("nobody", grp.getgrgid(nobody.pw_gid).gr_name, nobody.pw_uid, nobody.pw_gid)
    me = pwd.getpwuid(os.getuid())
    return _RunAs(me.pw_name, grp.getgrgid(os.getgid()).gr_name, os.getuid(), os.getgid())


class DovecotServer:
    """One Dovecot instance in its own temporary directory; `start`, `stop`, `restart`."""

    def __init__(
        self,
        users: Mapping[str, str] = DEFAULT_USERS,
        capabilities: str | None = None,
        tls: SelfSignedCa | None = None,
        oauth_introspection_url: str | None = None,
        auth_penalty: bool = True,
    ) -> None:
        """`capabilities`: what to announce after login instead of everything Dovecot can do,
        to play an older server (e.g. "IMAP4rev1 NAMESPACE" has neither MOVE nor IDLE).
        `tls`: offer STARTTLS on `port` and TLS from the start on `tls_port`, with this
        certificate. `oauth_introspection_url`: take XOAUTH2 and OAUTHBEARER logins too,
        checking each token there. `auth_penalty=False`: answer failed logins at once, not 2, 4,
        8, 15 s later, so a test sees the client's own waits between attempts."""
        require_dovecot()
        self.users = dict(users)
        self.capabilities = capabilities
        self.tls = tls
        self.oauth_introspection_url = oauth_introspection_url
        self.auth_penalty = auth_penalty
        self.host = HOST
        self.port = free_port()
        self.tls_port = free_port() if tls else 0
        self.root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        self._run_as = _run_as()
        self._process: subprocess.Popen[bytes] | None = None
        self._write_files()

    def _write_files(self) -> None:
        for folder in ("run", "state", "mail", "home"):
            (self.root / folder).mkdir()
        (self.root / "users").write_text(
            # Base64, so a password may hold the ':' that ends a field of this file.
            "".join(
                f"{user}:{{PLAIN.b64}}{b64encode(password.encode()).decode()}::::::\n"
                for user, password in self.users.items()
            )
        )
        if self.tls is not None:
            shutil.copyfile(self.tls.cert_file, self.root / "server.pem")
            shutil.copyfile(self.tls.key_file, self.root / "server.key")
        if self.oauth_introspection_url is not None:
            (self.root / "dovecot-oauth2.conf.ext").write_text(
                OAUTH_SETTINGS.format(introspection_url=self.oauth_introspection_url)
            )
        oauth = self.oauth_introspection_url is not None
        (self.root / "dovecot.conf").write_text(
            CONFIG_TEMPLATE.format(
                host=self.host,
                port=self.port,
                tls_port=self.tls_port,
                ssl_settings=SSL_SETTINGS.format(root=self.root) if self.tls else "ssl = no",
                oauth_mechanisms=" xoauth2 oauthbearer" if oauth else "",
                oauth_passdb=OAUTH_PASSDB.format(root=self.root) if oauth else "",
                root=self.root,
                user=self._run_as.user,
                group=self._run_as.group,
                separator=SEPARATOR,
                capability_line=(
                    f"imap_capability = {self.capabilities}" if self.capabilities else ""
                ),
                penalty_line=(
                    ""
                    if self.auth_penalty
                    else "  unix_listener anvil-auth-penalty {\n    mode = 0\n  }"
                ),
            )
        )
        for path in [self.root, *self.root.rglob("*")]:
            os.chown(path, self._run_as.uid, self._run_as.gid)

    @property
    def config_path(self) -> Path:
        return self.root / "dovecot.conf"

    def log_text(self) -> str:
        log = self.root / "dovecot.log"
        return log.read_text(errors="replace") if log.exists() else ""

    def start(self) -> None:
        command = [str(DOVECOT), "-F", "-c", str(self.config_path)]
        if os.geteuid() == 0:
            run_as = self._run_as
            command = [
                SETPRIV,
                f"--reuid={run_as.user}",
                f"--regid={run_as.group}",
                "--init-groups",
                *command,
            ]
        # Its own process group, so stopping it ends the processes serving clients as well: the
        # master alone would leave them running, and a "restart" would drop no connection.
        self._process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.root,
            start_new_session=True,
        )
        self._wait_for_greeting()

    def _wait_for_greeting(self) -> None:
        assert self._process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                assert self._process.stderr is not None
                errors = self._process.stderr.read().decode(errors="replace")
                raise DovecotUnavailable(
                    f"dovecot exited with {self._process.returncode}: {errors}{self.log_text()}"
                )
            try:
                with socket.create_connection((self.host, self.port), timeout=1) as connection:
                    if connection.recv(64).startswith(b"* OK"):
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise DovecotUnavailable(f"dovecot did not answer within {START_TIMEOUT}s")

    def stop(self) -> None:
        """Stops the server as an administrator would: clients get BYE; the mail stays."""
        self._end(signal.SIGTERM)

    def crash(self) -> None:
        """Kills the server at once: clients just lose their connection; the mail stays."""
        self._end(signal.SIGKILL)

    def _end(self, how: signal.Signals) -> None:
        if self._process is None:
            return
        group = self._process.pid
        os.killpg(group, how)
        try:
            self._process.wait(STOP_TIMEOUT)
            _wait_for_group_to_exit(group, STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(group, signal.SIGKILL)
            self._process.wait()
        if self._process.stderr:
            self._process.stderr.close()
        self._process = None

    def restart(self, crash: bool = False) -> None:
        if crash:
            self.crash()
        else:
            self.stop()
        self.start()

    def renumber_inbox(self, user: str = "moderator") -> None:
        """Restarts the server as one that lost its index: the INBOX gets a new UIDVALIDITY.

        Messages and their flags (kept in the Maildir file names) survive, as they would."""
        self.stop()
        maildir = self.root / "mail" / user
        uid_list = maildir / "dovecot-uidlist"
        header, rest = uid_list.read_text().split("\n", 1)
        version, validity, *other = header.split(" ")
        bumped = f"V{int(validity[1:]) + 1}"
        uid_list.write_text(" ".join([version, bumped, *other]) + "\n" + rest)
        for index in maildir.glob("dovecot.index*"):
            index.unlink()
        self.start()

    def remove(self) -> None:
        self.crash()
        shutil.rmtree(self.root, ignore_errors=True)

    def imap_url(self, user: str = "moderator", folder: str = "INBOX") -> str:
        """The plain-text URL: this server offers no TLS, so the login needs ?insecure=1."""
        password = quote(self.users[user], safe="")
        login = f"{quote(user, safe='')}:{password}"
        return f"imap://{login}@{self.host}:{self.port}/{folder}?insecure=1"

    def tls_url(self, user: str = "moderator", folder: str = "INBOX", scheme: str = "imaps") -> str:
        """imaps:// to `tls_port`, or imap:// (STARTTLS) to `port`, naming 127.0.0.1 as the
        test certificate does."""
        password = quote(self.users[user], safe="")
        port = self.tls_port if scheme == "imaps" else self.port
        return f"{scheme}://{quote(user, safe='')}:{password}@{self.host}:{port}/{folder}"

    @contextmanager
    def connection(self, user: str = "moderator") -> Iterator[imaplib.IMAP4]:
        """A plain imaplib session, logged in: the test's view, independent of the code tested."""
        client = imaplib.IMAP4(self.host, self.port)
        try:
            client.login(user, self.users[user])
            yield client
        finally:
            client.logout()

    def append(
        self, raw: bytes, user: str = "moderator", folder: str = "INBOX", seen: bool = False
    ) -> None:
        with self.connection(user) as client:
            status, detail = client.append(folder, "(\\Seen)" if seen else None, None, raw)
            assert status == "OK", detail

    def messages(self, folder: str, user: str = "moderator") -> list[tuple[bytes, bool]]:
        """(raw, seen) of every message in `folder` ('/' between levels), oldest first."""
        with self.connection(user) as client:
            status, _ = client.select(folder.replace("/", SEPARATOR), readonly=True)
            if status != "OK":
                return []
            _, data = client.uid("SEARCH", "ALL")
            found: list[tuple[bytes, bool]] = []
            for uid in data[0].split():
                _, parts = client.uid("FETCH", uid, "(FLAGS BODY.PEEK[])")
                fetched = [part for part in parts if isinstance(part, tuple)]
                if not fetched:  # the daemon moved it away between SEARCH and FETCH
                    continue
                header, body = fetched[0]
                found.append((body, b"\\Seen" in header))
            return found

    def uidvalidity(self, folder: str = "INBOX", user: str = "moderator") -> int:
        with self.connection(user) as client:
            _, data = client.status(folder, "(UIDVALIDITY)")
            return int(data[0].split(b"UIDVALIDITY ")[1].rstrip(b")"))


def _wait_for_group_to_exit(group: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while _live_members(group):
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(f"process group {group}", timeout)
        time.sleep(0.02)


def _live_members(group: int) -> list[int]:
    """Processes of `group` that have not exited (zombies left to an init that never reaps don't
    count)."""
    return [stat.pid for stat in all_proc_stats() if stat.group == group and not stat.ended]


def require_dovecot() -> None:
    if not DOVECOT.exists():
        raise DovecotUnavailable(
            f"{DOVECOT} is missing: run `bash .ci/install-dovecot` (installs dovecot-imapd)"
        )


def skip_without_dovecot() -> None:
    """Skips the calling test when Dovecot is missing, except under CI=true where it must be."""
    try:
        require_dovecot()
    except DovecotUnavailable as error:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(str(error))


@contextmanager
def running_dovecot(
    users: Mapping[str, str] = DEFAULT_USERS,
    capabilities: str | None = None,
    tls: SelfSignedCa | None = None,
    oauth_introspection_url: str | None = None,
    auth_penalty: bool = True,
) -> Iterator[DovecotServer]:
    server = DovecotServer(users, capabilities, tls, oauth_introspection_url, auth_penalty)
    try:
        server.start()
        yield server
    finally:
        server.remove()
