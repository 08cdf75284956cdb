"""Every game Arbiter hosts. Importing this package registers their rulesets.

Each sub-package of `domain.games` is one game and registers itself when imported, so
adding a game adds a folder here and touches nothing shared.
"""

import importlib
import pkgutil

from domain.kernel.ruleset import all_latest, latest, pinned  # noqa: F401

for _game in sorted(module.name for module in pkgutil.iter_modules(__path__) if module.ispkg):
    importlib.import_module(f"{__name__}.{_game}")
