"""The composition root: settings in, a running ``Platform`` out.

The only package that may import every layer: it chooses the stores, starts the
read models and the background work, and hands the catalogue of games
(``domain.catalog``) to the kernel's registry. Entry points (``api``'s app and
command, the workers' processes) start here.
"""

from wiring.games import register_games
from wiring.platform import Platform, bootstrap
from wiring.stores import creating_tables, eventsourcing_env, sql_store, views_class

__all__ = [
    "Platform",
    "bootstrap",
    "creating_tables",
    "eventsourcing_env",
    "register_games",
    "sql_store",
    "views_class",
]
