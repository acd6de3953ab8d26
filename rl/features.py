"""A seat's observation as numbers: its view, hashed into a fixed-length vector.

The observation is built from ``ruleset.view(state, Viewer.of(seat))`` and nothing else:
the view is the one code that decides what a seat may see (hidden cards show as
``{"hidden": n}``), so what the learner gets is what the seat could learn by playing,
and a bot on a server, which receives the same view, computes the same vector.

The view is JSON of any shape, so it is read generically (feature hashing): every leaf
at path ``p`` (list positions included) adds to one bucket of the vector, chosen by a
CRC-32 of ``p`` for a number (it adds ``sign(v) * log1p(|v|)``, so coordinates stay in
range) and of ``p=value`` for a string, a bool or null (it adds 1). CRC-32 does not
depend on the interpreter's hash seed, so two processes agree. The caches of path steps
and tokens grow with the distinct keys and string values of views (names of cards and
tiles, not coordinates), so they stay small.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Mapping
from functools import cache
from math import copysign, log1p
from typing import Any
from zlib import crc32

import numpy as np

from domain.kernel import canonical_json

OBSERVATION_SIZE = 1024
"""The default length of the vector: enough for the largest view (Seven Dragons' layout)
to collide little, small enough to learn from."""


_KEYS: dict[object, bytes] = {}
_TOKENS: dict[object, bytes] = {}


def _key(k: object) -> bytes:
    """The path step of a dict key or list position: ``/k``."""
    out = _KEYS.get(k)
    if out is None:
        out = _KEYS[k] = f"/{k}".encode()
    return out


def _token(v: object) -> bytes:
    """The value part of a string, bool or null leaf: ``=v``."""
    out = _TOKENS.get((type(v), v))
    if out is None:
        out = _TOKENS[(type(v), v)] = f"={v}".encode()
    return out


def featurize(view: Mapping[str, Any], seat: int, size: int = OBSERVATION_SIZE) -> np.ndarray:
    """The vector of ``view``, as seen by ``seat``.

    A leaf's path is hashed step by step (CRC-32 continues from its parent's), so no path
    string is built; the buckets are summed by ``numpy.bincount``."""
    leaves = Leaves(seat)
    leaves.add(0, view)
    return leaves.vector(size)


def path(*steps: object) -> int:
    """The CRC-32 of the path ``/steps[0]/steps[1]...``: where a game's encoder adds a part of
    the view (``Leaves.add``) without building the view around it."""
    return path_from(0, *steps)


def path_from(at: int, *steps: object) -> int:
    """The CRC-32 of path ``at`` followed by ``/steps[0]/steps[1]...``."""
    for step in steps:
        at = crc32(_key(step), at)
    return at


class Leaves:
    """The leaves of one seat's view, in the view's order: what ``featurize`` sums.

    ``featurize`` adds the whole view at once. A game's encoder (``rl.games``) adds it part
    by part straight from the state, at each part's ``path``, and renders the parts that
    recur from step to step (a lair, a placed card, a hand) once (``cached``). Added in the
    view's own order, the leaves sum to the very same vector: ``numpy.bincount`` adds each
    bucket's weights in the order they come."""

    __slots__ = ("buckets", "weights")

    def __init__(self, seat: int) -> None:
        # Arrays, not lists: a cached part is extended by a copy of its memory, and the vector
        # reads them without a conversion.
        self.buckets = array("I", (_seat_crc(seat),))
        self.weights = array("d", (1.0,))

    @classmethod
    def empty(cls) -> Leaves:
        """No leaves, not even the seat's: a part to add to a seat's leaves later (``extend``)."""
        leaves = cls.__new__(cls)
        leaves.buckets, leaves.weights = array("I"), array("d")
        return leaves

    def extend(self, buckets: array[int], weights: array[float]) -> None:
        """Leaves already hashed (a part kept by an encoder), in their order."""
        self.buckets.extend(buckets)
        self.weights.extend(weights)

    def add(self, at: int, node: Any) -> None:
        """The leaves of ``node`` (JSON: dicts, lists or tuples, numbers, strings, bools, None) at path ``at``."""
        t = type(node)
        if t is dict or t is list or t is tuple:
            _walk(node, at, self.buckets, self.weights)
        elif t is int or t is float:
            self.buckets.append(at)
            self.weights.append(copysign(log1p(abs(node)), node))
        else:
            token = _TOKENS.get((t, node))
            self.buckets.append(crc32(token if token is not None else _token(node), at))
            self.weights.append(1.0)

    def cached(self, at: int, key: Hashable, render: Callable[..., Any], *args: Any) -> None:
        """The leaves of ``render(*args)`` at path ``at``: ``key`` must determine what ``render``
        returns (an immutable part of the state, or the visible content itself).

        Kept per ``(at, key)``; and the part's shape (each leaf's path below ``at``, as bytes,
        and weight) per render site and ``key``, so a part met again at another path (a card
        one place further in a list) costs a CRC per leaf, not a render and a walk."""
        chunk = _CHUNKS.get((at, key))
        if chunk is None:
            if len(_CHUNKS) >= CHUNKS_LIMIT:
                _CHUNKS.clear()
            suffixes, weights = _shape(key, render, args)
            chunk = _CHUNKS[(at, key)] = (array("I", [crc32(s, at) for s in suffixes]), weights)
        self.buckets.extend(chunk[0])
        self.weights.extend(chunk[1])

    def kept(self, at: int, part: Any, render: Callable[..., Any], *args: Any) -> None:
        """``cached(at, part, render, *args)``, found first by the identity of ``part``: an immutable part
        of the state (a tuple of dataclasses, say) that the next state shares, the very same
        object, while it does not change. No hashing of its content then."""
        found = _KEPT.get((at, id(part)))
        if found is None or found[0] is not part:
            self.cached(at, part, render, *args)
            if len(_KEPT) >= CHUNKS_LIMIT:
                _KEPT.clear()
            _KEPT[(at, id(part))] = (part, _CHUNKS[(at, part)])
            return
        chunk = found[1]
        self.buckets.extend(chunk[0])
        self.weights.extend(chunk[1])

    def grouped(self, part: Any, build: Callable[[Leaves], None], also: Hashable = None) -> None:
        """The leaves ``build(leaves)`` adds to empty leaves (at their own paths), built once per
        ``part`` and found by its identity (as ``kept``): the parts of the view that come from one
        object of the state cost one lookup while it does not change. ``part`` must determine
        every leaf ``build`` adds, with ``also`` (a small value, compared by value) if given;
        ``build`` may itself use the caches for what it adds."""
        found = _KEPT.get((-1, id(part), also))
        if found is None or found[0] is not part:
            leaves = Leaves.empty()
            build(leaves)
            if len(_KEPT) >= CHUNKS_LIMIT:
                _KEPT.clear()
            found = _KEPT[(-1, id(part), also)] = (part, (leaves.buckets, leaves.weights))
        chunk = found[1]
        self.buckets.extend(chunk[0])
        self.weights.extend(chunk[1])

    def sequence(self, at: int, items: tuple[Any, ...]) -> None:
        """The leaves of the list ``items`` (numbers, strings, bools or None) at path ``at``, kept
        by content. A list that grows at its end (tiles removed one by one) costs one leaf more
        than the list before it, whose leaves are kept too: no pass over the whole list."""
        chunk = _SEQUENCES.get((at, items))
        if chunk is None:
            chunk = _sequence(at, items)
        self.buckets.extend(chunk[0])
        self.weights.extend(chunk[1])

    def keyed(self, at: int, items: tuple[Any, ...], name: Name, render: Render) -> None:
        """The leaves of ``{name(item): render(item) for item in items}`` at path ``at``: a list
        of the view that an observed view keys by name (``GameSpec.observed_view``), for items
        the state keeps from step to step. Keyed, an item's leaves do not depend on its place, so
        a list that is the last met at ``at`` with one item put in or taken out anywhere is
        spliced (a stone placed in its sorted place); any other change, a pass over its items.
        ``render`` must depend on the item alone, one function per path: an item's leaves are kept
        by its identity (``kept``), whatever renders it."""
        last = _KEYED.get(at)
        if last is None or last.items is not items:
            grown = (
                Keyed.spliced(last, items) if last is not None and last.name is name and last.render is render else None
            )
            last = _KEYED[at] = grown or Keyed.built(at, items, name, render)
        self.extend(last.buckets, last.weights)

    def vector(self, size: int = OBSERVATION_SIZE) -> np.ndarray:
        crcs = np.frombuffer(self.buckets, dtype=np.uint32)
        buckets = crcs & np.uint32(size - 1) if size & (size - 1) == 0 else crcs % np.uint32(size)  # & is cheaper
        out = np.bincount(buckets, np.frombuffer(self.weights, dtype=np.float64), minlength=size)
        return out.astype(np.float32)


CHUNKS_LIMIT = 16_384
"""Parts each cache keeps before it starts afresh: a part is a few dozen numbers, so the caches stay
within tens of megabytes (four times as many bought no measurable speed)."""

_CHUNKS: dict[tuple[int, Hashable], tuple[array[int], array[float]]] = {}


_KEPT: dict[tuple[Any, ...], tuple[Any, tuple[array[int], array[float]]]] = {}
"""``Leaves.kept``: by path and the part's id, the part itself (so the id stays its own) and its leaves."""


Name = Callable[[Any], str]
Render = Callable[[Any], Any]


class Keyed:
    """One keyed list's leaves, with each item's (``Leaves.keyed``)."""

    __slots__ = ("at", "buckets", "items", "name", "parts", "render", "weights")

    def __init__(
        self, at: int, items: tuple[Any, ...], name: Callable[[Any], str], render: Callable[[Any], Any]
    ) -> None:
        self.at, self.items, self.name, self.render = at, items, name, render
        self.parts: list[tuple[array[int], array[float]]] = []
        self.buckets: array[int] = array("I")
        self.weights: array[float] = array("d")

    def part(self, item: Any) -> tuple[array[int], array[float]]:
        leaves = Leaves.empty()
        leaves.kept(_named(self.at, self.name(item)), item, self.render, item)
        return leaves.buckets, leaves.weights

    @classmethod
    def built(cls, at: int, items: tuple[Any, ...], name: Name, render: Render) -> Keyed:
        out = cls(at, items, name, render)
        out.parts = [out.part(item) for item in items]
        for buckets, weights in out.parts:
            out.buckets.extend(buckets)
            out.weights.extend(weights)
        return out

    @classmethod
    def spliced(cls, last: Keyed, items: tuple[Any, ...]) -> Keyed | None:
        """``last`` with the one item ``items`` puts in or takes out, or None if it is not so."""
        if abs(len(items) - len(last.items)) != 1:
            return None
        before = last.items
        i = next(
            (j for j, (a, b) in enumerate(zip(items, before, strict=False)) if a is not b), min(len(items), len(before))
        )
        out = cls(last.at, items, last.name, last.render)
        at = sum(len(b) for b, _ in last.parts[:i])
        if len(items) > len(before):
            if items[i + 1 :] != before[i:]:
                return None
            part = out.part(items[i])
            out.parts = [*last.parts[:i], part, *last.parts[i:]]
            out.buckets = last.buckets[:at] + part[0] + last.buckets[at:]
            out.weights = last.weights[:at] + part[1] + last.weights[at:]
        else:
            if items[i:] != before[i + 1 :]:
                return None
            end = at + len(last.parts[i][0])
            out.parts = [*last.parts[:i], *last.parts[i + 1 :]]
            out.buckets = last.buckets[:at] + last.buckets[end:]
            out.weights = last.weights[:at] + last.weights[end:]
        return out


_KEYED: dict[int, Keyed] = {}
"""``Leaves.keyed``: per path, the last list met there."""


@cache
def _named(at: int, name: str) -> int:
    return crc32(_key(name), at)


_SEQUENCES: dict[tuple[int, tuple[Any, ...]], tuple[array[int], array[float]]] = {}
"""``Leaves.sequence``: by path and content, a list's leaves."""


def _sequence(at: int, items: tuple[Any, ...]) -> tuple[array[int], array[float]]:
    """The leaves of ``items`` at ``at``: those of ``items[:-1]`` if kept, and the last item's."""
    if len(_SEQUENCES) >= CHUNKS_LIMIT:
        _SEQUENCES.clear()
    n = len(items)
    parent = _SEQUENCES.get((at, items[:-1])) if n else None
    leaves = Leaves.empty()
    if parent is not None:
        leaves.extend(*parent)
        leaves.add(crc32(_key(n - 1), at), items[-1])
    else:
        for i, item in enumerate(items):
            leaves.add(crc32(_key(i), at), item)
    chunk = _SEQUENCES[(at, items)] = (leaves.buckets, leaves.weights)
    return chunk


_SHAPES: dict[tuple[Any, Hashable], tuple[list[bytes], array[float]]] = {}


def _shape(key: Hashable, render: Callable[..., Any], args: tuple[Any, ...]) -> tuple[list[bytes], array[float]]:
    """The leaves of ``render(*args)`` relative to where it is added: CRC-32 runs on, so the
    bucket of a leaf at ``at`` is ``crc32(suffix, at)``. The site (the render's code, or the
    function) keeps two call sites' equal keys apart."""
    site = getattr(render, "__code__", render)
    found = _SHAPES.get((site, key))
    if found is None:
        if len(_SHAPES) >= CHUNKS_LIMIT:
            _SHAPES.clear()
        suffixes: list[bytes] = []
        weights = array("d")
        _flatten(render(*args), b"", suffixes, weights)
        found = _SHAPES[(site, key)] = (suffixes, weights)
    return found


def _flatten(node: Any, prefix: bytes, suffixes: list[bytes], weights: array[float]) -> None:
    """``_walk``, with paths as bytes below the node instead of CRCs from the root."""
    t = type(node)
    if t is dict or t is list or t is tuple:
        for k, v in node.items() if t is dict else enumerate(node):
            _flatten(v, prefix + _key(k), suffixes, weights)
    elif t is int or t is float:
        suffixes.append(prefix)
        weights.append(copysign(log1p(abs(node)), node))
    else:
        suffixes.append(prefix + _token(node))
        weights.append(1.0)


@cache
def _seat_crc(seat: int) -> int:
    return crc32(f"@seat={seat}".encode())


def _walk(node: Any, crc: int, buckets: array[int], weights: array[float]) -> None:
    keys, tokens = _KEYS, _TOKENS  # the lookups of _key and _token, inlined: this is the hot loop
    items = node.items() if type(node) is dict else enumerate(node)
    for k, v in items:
        step = keys.get(k)
        c = crc32(step if step is not None else _key(k), crc)
        t = type(v)
        if t is dict or t is list or t is tuple:
            _walk(v, c, buckets, weights)
        elif t is int or t is float:
            buckets.append(c)
            weights.append(copysign(log1p(abs(v)), v))
        else:
            token = tokens.get((t, v))
            buckets.append(crc32(token if token is not None else _token(v), c))
            weights.append(1.0)


def describe(view: Mapping[str, Any], seat: int) -> str:
    """The observation as a string: the seat and its view in canonical JSON (sorted keys),
    for OpenSpiel's observation strings and for logs."""
    return f"seat {seat}: {canonical_json(view)}"
