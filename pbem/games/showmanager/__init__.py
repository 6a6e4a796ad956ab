"""Show Manager (Queen Games 1997; first published as Premiere): the rules engine.

`ENGINE` implements `pbem.games.base.RulesEngine` for the actions in `actions.py`, plus the
moderator's extras: `default_actions`, `legal_summary`, `set_money`, `set_value`.
"""

from pbem.games.showmanager.engine import ShowManagerEngine
from pbem.games.showmanager.errors import ShowManagerError
from pbem.games.showmanager.state import GameState

ENGINE = ShowManagerEngine()

__all__ = ["ENGINE", "GameState", "ShowManagerEngine", "ShowManagerError"]
