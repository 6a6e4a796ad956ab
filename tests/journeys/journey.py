"""A game played to its end by players who always answer the newest email they got."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from pbem.daemon import Daemon
from pbem.games.rng import Rng
from pbem.moderator.desk import Desk
from pbem.moderator.loaded import LoadedGame, load_game
from pbem.moderator.start import GameRequest, PlayerSpec, start_game
from pbem.orders.incoming import parse_message
from pbem.orders.mime import body_text
from pbem.orders.quotes import ORDERS_ABOVE_MARK
from pbem.store import InboundRow, session_scope
from pbem.store.tables import Press
from tests.journeys.mail_client import YOUR_MOVE, Player, Received, Watcher
from tests.support.dovecot import DovecotServer
from tests.support.smtpd import SmtpServer

# A Show Manager game of two takes some 100 turns; this bounds a game that would never end.
MAX_CYCLES = 400
DEADLINE_HOURS = 72.0


def shows_address(text: str, address: str) -> bool:
    """Whether `text` holds `address` as an address of its own, not as the tail of another: a
    reply address whose random password ends in "cy" (`pbem+bt-1.kdbcy@example.org`) ends in
    `cy@example.org`, Cy's address, without showing it."""
    return re.search(rf"(?<![\w.+-]){re.escape(address)}", text, re.IGNORECASE) is not None


@dataclass
class Journey:
    daemon: Daemon
    dovecot: DovecotServer
    smtp: SmtpServer
    players: list[Player]
    game_id: str
    taken: int = 0  # how many of the SMTP server's emails were handed to their readers
    watchers: list[Watcher] = field(default_factory=list)
    former: list[Player] = field(default_factory=list)  # left their seat (RESIGN): no more a seat's
    bot_seconds: float | None = None  # computer players' share of each cycle (None: no limit)

    @classmethod
    def start(
        cls,
        daemon: Daemon,
        dovecot: DovecotServer,
        smtp: SmtpServer,
        game: str,
        players: list[Player],
        seed: int,
        press: Press = "all",
        bots: tuple[str, ...] = (),
    ) -> Journey:
        """`bots`: computer players after the people, as `--bot` names them (NAME or NAME:LEVEL)."""
        computers = tuple(PlayerSpec.computer(bot) for bot in bots)
        request = GameRequest(
            game=game,
            players=tuple(PlayerSpec(p.address, p.name) for p in players) + computers,
            seed=seed,
            first_player=players[0].address if game == "showmanager" else None,
            deadline_hours=DEADLINE_HOURS,
            press=press,
        )
        with session_scope(daemon.engine) as session:
            game_id = start_game(Desk(session, daemon.settings), request).id
        return cls(daemon, dovecot, smtp, players, game_id)

    def game(self) -> LoadedGame:
        with Session(self.daemon.engine) as session:
            return load_game(session, self.game_id)

    def play(self, rng: Rng) -> int:
        """Cycle the moderator and let everyone answer their newest email, until nobody has
        anything to answer; how many cycles it took."""
        for cycles in range(1, MAX_CYCLES + 1):
            report = self.daemon.cycle(self.bot_seconds)
            self.deliver(report.outbox.sent)
            replies = []
            for player in self.players:
                newest = player.newest
                if newest is not None and newest.asks_for_orders:
                    self.check_asks_for_the_current_phase(player, newest)
                reply = player.reply(self.daemon.engine, self.game_id, rng)
                if reply is not None:
                    replies.append(reply)
            if not replies and not report.bots_waiting:
                return cycles
            for reply in replies:
                self.dovecot.append(reply)
        raise AssertionError(f"{self.game_id} did not end in {MAX_CYCLES} cycles")

    def answer(self, letters: list[tuple[Player, str]]) -> None:
        """Each player answers their newest email with their letter; the moderator reads all,
        and what it sends is delivered."""
        for player, body in letters:
            newest = player.newest
            assert newest is not None
            self.dovecot.append(player.write(newest, body))
        self.deliver(self.daemon.cycle().outbox.sent)

    def deliver(self, sent: int) -> None:
        """Hand the emails the moderator just sent to their readers, checking each as it comes."""
        received = self.smtp.wait_for(self.taken + sent)
        assert len(received) == self.taken + sent
        by_address = {player.address: player for player in self.players}
        watching = {watcher.address: watcher for watcher in self.watchers}
        gone = {person.address: person for person in self.former}
        for mail in received[self.taken :]:
            assert len(mail.recipients) == 1, mail.recipients
            if (watcher := watching.get(mail.recipients[0])) is not None:
                watcher.receive(mail)
                self.check_watcher_letter(watcher.inbox[-1])
                continue
            if (person := gone.get(mail.recipients[0])) is not None:
                person.receive(mail)
                self.check_former_letter(person, person.inbox[-1])
                continue
            player = by_address[mail.recipients[0]]
            player.receive(mail)
            self.check_letter(player, player.inbox[-1])
        self.taken = len(received)

    def check_letter(self, player: Player, mail: Received) -> None:
        """What every email shows its reader: the mark first, the game and the phase in the
        subject with no `Re:`, the footer with the password (the final result's asks for no
        orders), and no other player's address."""
        secret = self.game().seat(player.seat).secret
        assert mail.text.splitlines()[0] == ORDERS_ABOVE_MARK
        assert ORDERS_ABOVE_MARK in mail.html
        assert mail.subject.startswith(f"[{self.game_id}] ")
        assert "Re:" not in mail.subject
        if mail.subject.endswith("Final result"):  # the password for HISTORY alone
            assert f"Game {self.game_id} is over: no more orders are taken." in mail.text
            words = " ".join(mail.text.split())  # the footer's lines are wrapped at 78
            assert f"a line PASSWORD {secret}, with [{self.game_id}]" in words
        else:
            assert f"Game {self.game_id}, your password: {secret}" in mail.text
        assert secret in mail.html
        assert f"+{self.game_id}.{secret}@" in mail.reply_to
        others = [p.address for p in self.players if p is not player]
        others += [watcher.address for watcher in self.watchers]
        for address in others:
            for part in (mail.text, mail.html, mail.headers):
                assert not shows_address(part, address), f"{address} reached {player.address}"

    def check_watcher_letter(self, mail: Received) -> None:
        """What every email to a watcher shows: the mark, the game and phase in the subject, how
        to stop watching (once the game is over, that nothing more comes); no reply address,
        password, private section or example orders, and no player's address or secret."""
        game = self.game()
        assert mail.text.splitlines()[0] == ORDERS_ABOVE_MARK
        assert mail.subject.startswith(f"[{self.game_id}] ") and "Re:" not in mail.subject
        assert mail.reply_to == ""
        if "Final result" in mail.subject:
            assert "this is the last of its emails to you" in " ".join(mail.text.split())
            assert "UNWATCH" not in mail.text
        else:
            assert f"UNWATCH {self.game_id}" in mail.text
        for private in ("password", "(private", "Your hand", "It is your move", "Sealed bid"):
            assert private.lower() not in mail.text.lower(), private
            assert private.lower() not in mail.html.lower(), private
        for seat in game.seats:
            for part in (mail.text, mail.html, mail.headers):
                assert not shows_address(part, seat.address) and f".{seat.secret}@" not in part

    def check_former_letter(self, person: Player, mail: Received) -> None:
        """What an email to someone who left their seat shows: no seat's password or reply
        address (the computer player's now), no request for orders (nor the mark line above
        which orders go), no other player's address."""
        game = self.game()
        assert mail.subject.startswith(f"[{self.game_id}] ") and "Re:" not in mail.subject
        assert ORDERS_ABOVE_MARK not in mail.text and ORDERS_ABOVE_MARK not in mail.html
        assert mail.reply_to == ""
        for part in (mail.text, mail.html):
            assert "your password:" not in part and YOUR_MOVE not in part
        for seat in game.seats:
            for part in (mail.text, mail.html, mail.headers):
                assert seat.secret not in part, f"{seat.name}'s password reached {person.address}"
                if seat.position != person.seat:
                    assert not shows_address(part, seat.address)

    def check_asks_for_the_current_phase(self, player: Player, mail: Received) -> None:
        """An email asking for a move names the game's phase now and shows the board."""
        game = self.game()
        state = game.state
        if game.row.game == "bigtime":
            phase = f"Round {state.round} · Phase {state.phase}"
            assert mail.subject.endswith(phase), (mail.subject, phase)
            assert f"The Big Time!, round {state.round} of 4, phase {state.phase}" in mail.text
        else:
            assert state.turn == player.seat
            assert mail.subject.endswith("Your turn"), mail.subject
            assert f"Turn: {player.name} (you)." in mail.text
        assert "Deadline:" in mail.text

    def written_by(self, player: Player) -> list[str]:
        """The text of every email `player` sent the moderator, as the moderator stored it."""
        with Session(self.daemon.engine) as session:
            rows = session.exec(select(InboundRow).order_by(col(InboundRow.id))).all()
            raws = [row.raw for row in rows]
        sender = f"From: {player.name} <{player.address}>".encode()
        return [body_text(parse_message(raw)) for raw in raws if sender in raw]

    def inbound_statuses(self) -> list[str]:
        with Session(self.daemon.engine) as session:
            rows = session.exec(select(InboundRow).order_by(col(InboundRow.id))).all()
            return [f"{row.status}: {row.reason}" for row in rows]

    def check_final_emails(self) -> None:
        """Each player's newest email is the final result: standings once, nothing asked."""
        game = self.game()
        assert game.engine.is_over(game.state) and game.row.status == "finished"
        winner = game.engine.outcome(game.state).winner
        for player in self.players:
            final = player.newest
            assert final is not None
            assert final.subject == f"[{self.game_id}] Final result"
            assert final.text.count("Final standings") == 1
            assert "Deadline" not in final.text and "Deadline" not in final.html
            assert not final.asks_for_orders
            assert "Reply to this email" not in final.text
            assert "wins" not in final.text
            if winner is not None:
                assert f"1. {game.name_of(winner)}: " in final.text
