"""Seven Dragons (Andrew Looney, Looney Labs 2011): connect seven dragons of your secret goal's colour."""

from domain.seven_dragons.ruleset import RULESET

__all__ = ["RULESET"]
