"""Recording transcripts: a game played by random legal emails through the real moderator path.

    python -m pbem.cli.transcripts GAME VARIANT PLAYERS SEED sample_games/NAME.yaml

The recorder weaves in what a real game brings (REPLAY.md, issue 4): a rejected order, a quoted
reply, a signature, an HTML-only email, an early order that waits for its turn (Show Manager) and
a GM undo. Each email is sent while recording, so the transcript replays to the same end; its
`expect` is what the moderator reached.
"""

from __future__ import annotations

import sys
from typing import Any

import yaml
from sqlmodel import Session

from pbem.cli.replay import Replayer
from pbem.games.rng import Rng
from pbem.games.showmanager.actions import Hire, Stage
from pbem.orders.format import order_text

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]
QUOTE = (
    "\nOn Tue, 1 Dec 2026 at 09:00, pbem moderator <pbem@localhost> wrote:\n"
    "> Your turn\n> HIRE 0\n> STAGE WOLF 1 2 3 IN KOELN\n"
)


class _Recorder:
    def __init__(self, game: str, variant: str, players: int, seed: int) -> None:
        self.data: dict[str, Any] = {
            "game": game,
            "variant": variant,
            "seed": seed,
            "players": [{"email": f"{n.lower()}@example.org", "name": n} for n in NAMES[:players]],
            "messages": [],
        }
        self.replayer = Replayer(self.data)
        self.rng = Rng.from_seed(seed ^ 0xC0FFEE)
        self.rejected: list[int] = []

    def email_of(self, seat: int) -> str:
        return str(self.data["players"][seat]["email"])

    def send(self, entry: dict[str, Any]) -> str:
        status = self.replayer.send(entry)
        if status == "rejected":
            self.rejected.append(len(self.data["messages"]))
        self.data["messages"].append(entry)
        return status

    def gm(self, command: str) -> None:
        self.replayer.gm(command)
        self.data["messages"].append({"gm": command})

    def next_move(self) -> tuple[int, list[Any], Any] | None:
        with Session(self.replayer.engine) as session:
            game = self.replayer.game(session)
        if game.engine.is_over(game.state):
            return None
        seat = game.engine.awaiting(game.state)[0]
        return seat, game.engine.random_actions(game.state, seat, self.rng), game

    def record(self) -> dict[str, Any]:
        step = 0
        while (move := self.next_move()) is not None:
            seat, actions, game = move
            body = order_text(actions)
            entry: dict[str, Any] = {"from": self.email_of(seat), "body": body}
            if step == 0:
                self.send({"from": self.email_of(seat), "body": "Hello!\nHIRE 9\nSTAGE\n"})
            elif step == 2:
                entry["body"] = body + QUOTE
            elif step == 4:
                entry["body"] = body + "\n-- \nSent from my phone\nHIRE 3\n"
            elif step == 6:
                entry = {"from": entry["from"], "html": "<p>" + body.replace("\n", "<br>") + "</p>"}
            elif step == 8:
                self.send(dict(entry))
                self.gm("undo --why 'testing the undo'")
            elif (
                step >= 10
                and game.row.game == "showmanager"
                and "early" not in self.data
                and self._early_order(seat, actions, game)
            ):
                step += 1
                continue
            if self.send(entry) == "rejected":
                raise RuntimeError(f"a random legal email was rejected: {entry}")
            step += 1
        self.data.pop("early", None)
        summary = self.replayer.summary(self.rejected)
        self.data["expect"] = {
            key: summary[key] for key in ("finished", "winner", "scores", "money", "rejected")
        }
        return self.data

    def _early_order(self, seat: int, actions: list[Any], game: Any) -> bool:
        """Send the next player's orders before this turn's, so they wait for their turn."""
        if not isinstance(actions[-1], Hire | Stage):
            return False
        state = game.engine.submit(game.state, seat, actions).state
        following = game.engine.awaiting(state)
        if not following or following[0] == seat:
            return False
        after = following[0]
        early = game.engine.random_actions(state, after, self.rng.fork())
        self.send({"from": self.email_of(after), "body": order_text(early)})
        self.send({"from": self.email_of(seat), "body": order_text(actions)})
        self.data["early"] = True
        return True


def record(game: str, variant: str, players: int, seed: int) -> dict[str, Any]:
    return _Recorder(game, variant, players, seed).record()


def main(argv: list[str]) -> None:
    game, variant, players, seed, path = argv[0], argv[1], int(argv[2]), int(argv[3]), argv[4]
    transcript = record(game, variant, players, seed)
    with open(path, "w", encoding="utf-8") as handle:
        yaml.safe_dump(transcript, handle, sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    main(sys.argv[1:])
