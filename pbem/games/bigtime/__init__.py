"""The Big Time! (rule text 004) as spec/RULINGS.md reads it; see docs/rules-bigtime.md."""

from pbem.games.bigtime.components import BigTimeSetupError
from pbem.games.bigtime.engine import ENGINE, BigTimeEngine

__all__ = ["ENGINE", "BigTimeEngine", "BigTimeSetupError"]
