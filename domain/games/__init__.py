"""Every game Arbiter hosts. Importing this package registers their rulesets."""

from domain.kernel.ruleset import all_latest, latest, pinned  # noqa: F401

from . import cyberiad, cybermancy  # noqa: F401
