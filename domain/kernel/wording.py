"""Small helpers that write English for the narrators: numbers, counts, lists, hidden values.

A person reads these words, never the wire form: numbers up to twelve are spelt out, other
numbers are whole or rounded to at most one decimal, lists are joined with "and", and a
value a viewer may not see (``{"hidden": ...}`` in a redacted record) is said to be hidden,
never shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
IRREGULAR_PLURALS = {"die": "dice", "man": "men", "six": "sixes"}


def is_hidden(value: object) -> bool:
    """Whether ``value`` is what a redacted record shows in place of a secret field."""
    return isinstance(value, Mapping) and "hidden" in value


def hidden_count(value: object) -> int | None:
    """How many items a hidden collection holds (redaction keeps the count), or None."""
    if is_hidden(value):
        count = value["hidden"]  # type: ignore[index]
        return count if isinstance(count, int) and not isinstance(count, bool) else None
    return None


def number(n: float) -> str:
    """A number as a person reads it: spelt out up to twelve, else whole, else one decimal."""
    if isinstance(n, bool):
        return "one" if n else "no"
    if float(n).is_integer():
        whole = int(n)
        return NUMBER_WORDS[whole] if 0 <= whole < len(NUMBER_WORDS) else f"{whole:,}".replace(",", "\u202f")
    return figure(n)


def figure(n: float, decimals: int = 1) -> str:
    """A number in digits, never with more than ``decimals`` decimals (``-3.0`` is ``-3``)."""
    rounded = round(float(n), decimals)
    text = f"{rounded:.{decimals}f}".rstrip("0").rstrip(".") if decimals else str(int(rounded))
    text = "0" if text in ("-0", "") else text
    return text.replace("-", "\u2212")


def ordinal(n: int) -> str:
    """``1`` → ``first``; past ten, ``11th``."""
    if 0 < n < len(ORDINALS):
        return ORDINALS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(noun: str, n: float = 2) -> str:
    """``noun`` for ``n`` things: ``card``/``cards``, ``die``/``dice``, ``3``/``3s``."""
    if n == 1:
        return noun
    if noun in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[noun]
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def counted(n: float, noun: str) -> str:
    """``two cards``, ``one die``, ``no eggs``."""
    return f"{number(n)} {plural(noun, n)}"


def listing(items: Iterable[str], last: str = "and", empty: str = "nothing") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = [w for w in items if w]
    if not words:
        return empty
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def tally(values: Sequence[str], name: Any = None) -> str:
    """Equal values counted, in their first order: ``["red", "red", "green"]`` → ``two reds and a
    green`` (``name`` turns a value into its noun)."""
    order: list[str] = []
    counts: dict[str, int] = {}
    for v in values:
        if v not in counts:
            order.append(v)
            counts[v] = 0
        counts[v] += 1
    said = []
    for v in order:
        noun = name(v) if name else v
        said.append(f"{article(noun)} {noun}" if counts[v] == 1 else f"{number(counts[v])} {plural(noun)}")
    return listing(said)


def article(noun: str) -> str:
    """``a`` or ``an`` before ``noun`` (by its first letter; ``an 8``)."""
    first = noun[:1].lower()
    return "an" if first in "aeiou8" or noun[:2] in ("11", "18") else "a"


def chose(move: str) -> str:
    """A decision told after the fact from the phrase that offered it: "chose to stop", and for a
    refusal, "chose not to turn the forced alliance" (never "chose to do not turn ...")."""
    for refusal in ("do not ", "don't "):
        if move.startswith(refusal):
            return f"chose not to {move[len(refusal) :]}"
    return f"chose to {move}"


def upper_first(text: str) -> str:
    """``text`` with its first letter capitalised, the rest as it is (names keep their case)."""
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """``text`` with its full stop (unless it ends in one). Its first letter stays as written: a
    sentence may start with a player's name, which keeps the case its player chose."""
    text = text.strip()
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def words(name: str) -> str:
    """A wire name in words: ``place-2-planks`` → ``place 2 planks``."""
    return str(name).replace("_", " ").replace("-", " ")


def degrees(angle: float) -> str:
    """An angle in whole degrees: ``15°``."""
    return f"{figure(angle, 0)}°"


def turn_words(angle: float, zero: str = "straight on") -> str:
    """A turn (left positive) in words: ``15° left``, ``30° right``, or ``zero``."""
    whole = round(float(angle))
    if whole == 0:
        return zero
    return f"{abs(whole)}° {'left' if whole > 0 else 'right'}"
