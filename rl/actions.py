"""A fixed integer action space per game, over the game's own command types.

Learning libraries want one ``Discrete(n)`` per game, where an integer means the same
move in every position; the engines list complete commands. An ``ActionCodec`` joins
them: each command type owns a block of integers, and inside the block a command's
fields are numbered in mixed radix, each field over a finite ``Field`` of
``rl.action_fields`` (a list of values, or a grid for a continuous value). The codec
is generic; a game's module in ``rl.games`` declares only the fields the type hints
cannot bound (ints, strings, floats, tuples). Where no finite numbering fits (a choice
among geometric layouts), ``Listed(n)`` numbers the command by its place among the
listed commands of its type.

At each step the env asks ``codec.table(legal_moves)``: the mask of the integers that
stand for a legal command, and which command each stands for. A legal command whose
field falls outside its ``Field`` (a seat beyond the declared grid) is left out of the
mask; two commands that snap to one grid point share it, the first listed playing.

After the moves come the decisions a server game records without a move: ``skip`` (the acting
seat's decision lost to a timeout, where the rules allow), ``leave(seat)`` (a seat resigns or
forfeits, whoever is to act) and ``join`` (a newcomer takes the next seat of a running game, where
the rules allow). No mask sets them: the rules' choices are the moves. The environments play them
when given, so every recorded decision has an action (``rl.records``).
"""

from __future__ import annotations

import dataclasses
import enum
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from domain.kernel import Codec, Command
from rl.action_fields import Field, Listed, Spec, inferred_spec
from rl.match import Without


class CommandBlock:
    """The integers of one command type: ``offset`` up to ``offset + size``."""

    def __init__(self, cls: type[Command], spec: Spec, offset: int) -> None:
        self.cls, self.offset = cls, offset
        self.listed = spec if isinstance(spec, Listed) else None
        self.fields: tuple[tuple[str, Field], ...] = ()
        if isinstance(spec, Listed):
            self.size = spec.size
        else:
            names = [f.name for f in dataclasses.fields(cls)]
            missing = set(names) - set(spec)
            if missing:
                raise TypeError(f"{cls.__name__}: no field numbering for {sorted(missing)}")
            self.fields = tuple((n, spec[n]) for n in names)
            self.size = math.prod(f.size for _, f in self.fields)
        self._strides: dict[str, tuple[Field, int]] = {}
        stride = 1
        for name, f in reversed(self.fields):
            self._strides[name] = (f, stride)
            stride *= f.size

    def index(self, command: Command, ordinal: int) -> int | None:
        if self.listed is not None:
            return self.offset + ordinal if ordinal < self.size else None
        out = 0
        for name, field in self.fields:
            i = field.index(getattr(command, name))
            if i is None:
                return None
            out = out * field.size + i
        return self.offset + out

    def stride(self, name: str) -> int:
        """How far apart the actions of two commands are whose field ``name`` differs by one step."""
        return self._strides[name][1]

    def base(self, **fixed: Any) -> int | None:
        """The action of the command with the ``fixed`` fields and every other field at its first
        value: add ``stride(f) * index`` for the others. None when a fixed value is outside its field."""
        out = self.offset
        for name, value in fixed.items():
            field, stride = self._strides[name]
            i = field.index(value)
            if i is None:
                return None
            out += i * stride
        return out

    def command(self, index: int) -> Command:
        """The command of action ``index``: each field's value (a grid point for a ``Grid``)."""
        if self.listed is not None:
            raise ValueError(f"{self.cls.TYPE} is numbered by listing place: its actions stand for no fixed command")
        local, values = index - self.offset, {}
        for name, field in reversed(self.fields):
            local, i = divmod(local, field.size)
            values[name] = field.value(i)
        return self.cls(**values)

    def describe(self, index: int) -> str:
        local = index - self.offset
        if self.listed is not None:
            return f"{self.cls.TYPE} #{local}"
        parts = []
        for name, field in reversed(self.fields):
            local, i = divmod(local, field.size)
            v = field.value(i)
            parts.append(f"{name}={_show(v)}")
        return " ".join([self.cls.TYPE, *reversed(parts)])


KNOWN_LIMIT = 100_000
"""Commands whose action a codec keeps before it starts afresh."""


class ActionCodec:
    """The action space of one game: a block per command type, in the codec's order, then ``skip``,
    a ``leave`` per seat (up to ``seats``, the game's most) and ``join``."""

    def __init__(
        self, commands: Codec[Command], specs: Mapping[str, Spec], default_listed: int = 64, seats: int = 0
    ) -> None:
        self.blocks: list[CommandBlock] = []
        self.blocks_by_type: dict[type[Command], CommandBlock] = {}
        offset = 0
        for name, cls in commands.by_type.items():
            spec = specs.get(name)
            if spec is None:
                spec = inferred_spec(cls)
            if spec is None:
                spec = Listed(default_listed)
            block = CommandBlock(cls, spec, offset)
            self.blocks.append(block)
            self.blocks_by_type[cls] = block
            offset += block.size
        self.moves = offset
        """The actions 0 up to ``moves`` stand for moves; ``skip``, the ``leave``s and ``join`` follow."""
        self.seats = seats
        self.size = offset + 2 + seats
        self._names: dict[int, str] = {}
        self._known: dict[Command, int | None] = {}
        self._same: dict[int, tuple[Command, int | None]] = {}
        """By identity: the commands games list as shared instances (``functools.cache``d
        constructors), whose hashing, a dataclass's in Python, would cost more than the lookup."""

    def index(self, command: Command, ordinal: int = 0) -> int | None:
        """The action of ``command``; ``ordinal`` is its place among the listed commands of its type."""
        block = self.blocks_by_type[type(command)]
        if block.listed is not None:
            return block.index(command, ordinal)
        found = self._known.get(command, -1)  # a function of the command alone: kept, as listings repeat
        if found != -1:
            return found
        if len(self._known) >= KNOWN_LIMIT:
            self._known.clear()
        action = self._known[command] = block.index(command, ordinal)
        return action

    def table(self, moves: Sequence[Command]) -> tuple[np.ndarray, dict[int, Command]]:
        """The mask (``int8``, one per action; read-only for a large action space, see ``_recycled``)
        of the legal moves, and the move of each legal action."""
        chosen: dict[int, Command] = {}
        ordinals: dict[type[Command], int] = {}
        same, blocks = self._same, self.blocks_by_type
        for move in moves:
            hit = same.get(id(move))  # a listing's shared instance: found without hashing it
            if hit is not None and hit[0] is move:
                a = hit[1]
            else:
                block = blocks[type(move)]
                if block.listed is not None:  # numbered by its place among its type's moves
                    k = ordinals.get(block.cls, 0)
                    ordinals[block.cls] = k + 1
                    a = block.index(move, k)
                else:
                    a = self.index(move)
                    if len(same) >= KNOWN_LIMIT:
                        same.clear()
                    same[id(move)] = (move, a)  # the move is kept, so its id stays its own
            if a is not None:
                chosen.setdefault(a, move)
        return _mask(self.size, np.fromiter(chosen, dtype=np.int64, count=len(chosen))), chosen

    @property
    def skip(self) -> int:
        """The action of the acting seat's decision lost to a timeout (``Ruleset.skip``)."""
        return self.moves

    def leave(self, seat: int) -> int:
        """The action of ``seat`` leaving the game (resigning or forfeiting: ``Ruleset.leave``)."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"seat {seat} is outside 0..{self.seats - 1}")
        return self.moves + 1 + seat

    @property
    def join(self) -> int:
        """The action of a newcomer taking the next seat of a running game (``Ruleset.join``)."""
        return self.size - 1

    def without(self, action: int) -> tuple[Without, int | None] | None:
        """For ``skip``, ``("skip", None)``; for ``leave(seat)``, ``("leave", seat)``; for ``join``,
        ``("join", None)``; for a move's action, None."""
        if action == self.moves:
            return "skip", None
        if action == self.join:
            return "join", None
        if self.moves < action < self.join:
            return "leave", action - self.moves - 1
        return None

    def block_of(self, action: int) -> CommandBlock:
        for block in self.blocks:
            if block.offset <= action < block.offset + block.size:
                return block
        raise ValueError(f"action {action} is outside the moves' 0..{self.moves - 1}")

    def command(self, action: int) -> Command:
        """The command ``action`` stands for, from the numbering alone (not for ``Listed`` blocks)."""
        return self.block_of(action).command(action)

    def exact_command(self, action: int) -> Command | None:
        """The command ``action``'s numbering stands for; None for an action outside the space or
        of a ``Listed`` block (its command is its place in a listing), or a decision without a move."""
        if not 0 <= action < self.moves:
            return None
        block = self.block_of(action)
        return None if block.listed is not None else block.command(action)

    def exact_action(self, command: Command) -> int | None:
        """The action whose numbering is exactly ``command``: a legal move that a listing samples
        out has one, a continuous value off its grid (which would snap to another move) has none,
        nor has a command of a ``Listed`` type."""
        if self.blocks_by_type[type(command)].listed is not None:
            return None
        action = self.index(command)
        return action if action is not None and self.exact_command(action) == command else None

    def describe(self, action: int) -> str:
        """A readable name of ``action`` (for OpenSpiel's action strings and logs)."""
        found = self._names.get(action)
        if found is not None:
            return found
        without = self.without(action)
        if without is not None:
            return without[0] if without[1] is None else f"leave seat={without[1]}"
        block = self.block_of(action)
        if len(self._names) > 200_000:
            self._names.clear()
        self._names[action] = name = block.describe(action)
        return name


class Legal:
    """The legal actions of one seat in one position: the mask, and the command each stands for.

    Made from the listing (``of_moves``: every legal command, each indexed), or from the
    actions alone (``of_actions``: a game's ``legal_actions`` hook, which numbers its moves
    without building them; a command is then decoded from its action when it is played)."""

    __slots__ = ("_actions", "_chosen", "codec", "mask")

    def __init__(
        self, codec: ActionCodec, mask: np.ndarray, chosen: dict[int, Command] | None, actions: np.ndarray | None = None
    ) -> None:
        self.codec, self.mask, self._chosen, self._actions = codec, mask, chosen, actions

    @classmethod
    def of_moves(cls, codec: ActionCodec, moves: Sequence[Command]) -> Legal:
        mask, chosen = codec.table(moves)
        return cls(codec, mask, chosen)

    @classmethod
    def of_actions(cls, codec: ActionCodec, actions: np.ndarray) -> Legal:
        """``actions`` read-only (a hook's answer kept for reuse) gets a read-only mask, made once."""
        if actions.flags.writeable:
            return cls(codec, _mask(codec.size, actions), None, actions)
        kept = _SHARED_MASKS.get(id(actions))
        if kept is None or kept[0] is not actions:
            if len(_SHARED_MASKS) >= 64:
                _SHARED_MASKS.clear()
            mask = np.zeros(codec.size, dtype=np.int8)  # kept here, not in the pool
            mask[actions] = 1
            mask.flags.writeable = False
            kept = _SHARED_MASKS[id(actions)] = (actions, mask)
        return cls(codec, kept[1], None, actions)

    def actions(self) -> list[int]:
        """The legal actions, in increasing order."""
        if self._chosen is not None:
            return sorted(self._chosen)
        assert self._actions is not None
        return self._actions.tolist()

    def command(self, action: int) -> Command | None:
        """The legal command ``action`` stands for, or None when it is not legal (or not an action)."""
        if self._chosen is not None:
            return self._chosen.get(action)
        if not 0 <= action < self.codec.size or not self.mask[action]:
            return None
        return self.codec.command(action)

    def commands(self) -> dict[int, Command]:
        """Each legal action and its command, in action order when decoded."""
        if self._chosen is not None:
            return dict(self._chosen)
        return {a: self.codec.command(a) for a in self.actions()}

    def action_of(self, command: Command) -> int | None:
        """The action that stands for ``command`` here: a listed move's, else the action whose
        numbering is exactly ``command`` (a legal move the listing samples out; the rules still
        judge it when it is played). None when no action is ``command`` (a value off a grid)."""
        exact = self.codec.exact_action(command)
        if exact is not None and self.command(exact) in (None, command):
            return exact  # found without scanning the listing
        for action, listed in self.commands().items():
            if listed == command:  # numbered by its listing place, or snapped to a grid point
                return action
        return None

    def playable(self, action: int) -> Command | None:
        """The command ``action`` would play: the listed move's, else the command of its exact
        numbering (for the rules to judge: the listing samples the legal moves), else None."""
        return self.command(action) or self.codec.exact_command(action)


_SHARED_MASKS: dict[int, tuple[np.ndarray, np.ndarray]] = {}
"""Read-only masks of read-only action arrays, by the array's id (the array is kept, so the id
stays its own): a game whose hook answers one array for many positions (Mekong's hands) shares
one mask, rather than writing a megabyte at each of them."""


def _mask(size: int, actions: np.ndarray) -> np.ndarray:
    """The mask of ``size`` actions with ``actions`` set: a new array, or for a large action space
    a recycled read-only one (``_recycled``)."""
    if size >= RECYCLED_SIZE:
        return _recycled(size, actions)
    mask = np.zeros(size, dtype=np.int8)
    mask[actions] = 1
    return mask


RECYCLED_SIZE = 1 << 18
"""From this many actions up (Mekong's 958,348, Drachenreiter's 588,554, Seven Dragons' 568,249)
masks are recycled."""

_POOLS: dict[int, list[list[Any]]] = {}
"""Per size, up to 8 entries ``[mask, the actions set in it]``."""


def _recycled(size: int, actions: np.ndarray) -> np.ndarray:
    """A read-only mask of ``size`` with ``actions`` set: one of the pool's that nothing outside
    it holds any more, its previous actions cleared, or a new one.

    A new array of a megabyte costs more than an environment step: the allocator hands the
    memory back to the system when it is freed, and the system zeroes it page by page when it
    is written again; clearing a whole megabyte costs a third of a step too. A mask the learner
    still holds (in its observation, a replay buffer, a view or a tensor sharing its memory:
    each holds a reference) is never handed out again, and none can be written (copy one to
    change it), so a recycled mask holds exactly the actions set last."""
    pool = _POOLS.setdefault(size, [])
    for entry in pool:
        mask = entry[0]
        if sys.getrefcount(mask) == _POOLED_REFS:
            mask.flags.writeable = True
            mask[entry[1]] = 0
            break
    else:
        mask = np.zeros(size, dtype=np.int8)
        entry = [mask, actions]
        if len(pool) < 8:
            pool.append(entry)
    mask[actions] = 1
    entry[1] = actions
    mask.flags.writeable = False
    return mask


_POOLED_REFS = 3
"""References to a mask only the pool holds, as ``sys.getrefcount`` counts them in ``_recycled``:
the pool's entry, the loop's name, and the call's own argument."""


def _show(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return "(" + ",".join(_show(v) for v in value) + ")"
    return str(value)
