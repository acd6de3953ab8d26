"""The domain kernel: what every game plug-in is built from."""

from domain.kernel.bots import BeginnerBot, RandomBot, choose_move
from domain.kernel.bots_rollout import RolloutBot, RolloutSettings
from domain.kernel.bots_search import SearchBot, SearchSettings
from domain.kernel.decoding import DecodeError, decode
from domain.kernel.emitter import Emitter, Evolves, Folded, state_after, states_after
from domain.kernel.game_config import GameConfig
from domain.kernel.jsonable import canonical_json, encode, state_hash
from domain.kernel.outcome import Outcome
from domain.kernel.records import Codec, Command, Event
from domain.kernel.registry import all_games, find_game, register
from domain.kernel.rng import Rng, seed_commitment
from domain.kernel.rules import (
    LEAVING,
    GameOver,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    RuleError,
    RuleRef,
)
from domain.kernel.ruleset import (
    Bot,
    BotLevel,
    ConfigError,
    NoOptions,
    OptionError,
    Ruleset,
    Variant,
)
from domain.kernel.slots import builder, replacer
from domain.kernel.viewer import Viewer

__all__ = [
    "LEAVING",
    "BeginnerBot",
    "Bot",
    "BotLevel",
    "Codec",
    "Command",
    "ConfigError",
    "DecodeError",
    "Emitter",
    "Event",
    "Evolves",
    "Folded",
    "GameConfig",
    "GameOver",
    "IllegalMove",
    "MalformedMove",
    "NoOptions",
    "NotYourTurn",
    "OptionError",
    "Outcome",
    "RandomBot",
    "Rng",
    "RolloutBot",
    "RolloutSettings",
    "RuleError",
    "RuleRef",
    "Ruleset",
    "SearchBot",
    "SearchSettings",
    "Variant",
    "Viewer",
    "all_games",
    "builder",
    "canonical_json",
    "choose_move",
    "decode",
    "encode",
    "find_game",
    "register",
    "replacer",
    "seed_commitment",
    "state_after",
    "state_hash",
    "states_after",
]
