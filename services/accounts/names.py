"""Display names: what one must look like, and the keys that keep two from looking alike.

Every account's name is unique in the way a person reads it: "Bruno", "bruno", "BRUNO" and
"Вruno" (a Cyrillic В) are one name. A name is checked when it is chosen (``clean``: no
control or invisible characters, no spaces at either end or twice in a row), and its
``keys`` are stored beside the account (``dh_name_keys``, the key the primary key): a new
name that shares a key with any account's name is refused.

The keys follow Unicode's confusable detection (UTS #39, section 4): two strings are
confusable when their *skeletons* are equal, where a skeleton replaces every character by
the prototype it can be mistaken for, after NFD. The table of prototypes is Unicode's
``confusables.txt``, as the ``confusable-homoglyphs`` package ships it: that package keeps
each pair both ways (a character lists its prototype, the prototype lists every character
that looks like it), so the prototype of a character is the centre of its star: the one
entry of its list that lists more characters than it does (``_prototypes``).

Case and confusables do not commute: a skeleton maps "I" to "l" but leaves "i" alone, so
"Ivan" and "ivan" would differ after it; and case-folding first loses that a Cyrillic "В"
looks like a Latin "B" (its lower case "в" looks like nothing Latin). A name therefore has
two keys, ``skeleton(casefold(nfkc))`` and ``casefold(skeleton(nfkc))``, and two names
collide when any of their keys meet.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

MAX_LENGTH = 40
"""The longest display name, in characters."""
_ALLOWED_SPACE = " "


class NameRefused(ValueError):
    """A name that cannot be a display name; the message says why, in words."""


def clean(name: str) -> str:
    """``name`` as it is stored and shown: NFC, spaces at the ends removed. ``NameRefused``
    for an empty or too long name, one holding control, format or invisible characters
    (a zero-width joiner, a right-to-left mark), or spaces in a row."""
    text = unicodedata.normalize("NFC", name).strip()
    if not text:
        raise NameRefused("a name needs at least one letter or digit")
    if len(text) > MAX_LENGTH:
        raise NameRefused(f"a name has at most {MAX_LENGTH} characters")
    for ch in text:
        category = unicodedata.category(ch)
        if category[0] in ("C", "Z") and ch != _ALLOWED_SPACE:
            raise NameRefused("a name may not hold control, invisible or unusual space characters")
    if "  " in text:
        raise NameRefused("a name may not hold two spaces in a row")
    if not any(unicodedata.category(ch)[0] in ("L", "N") for ch in text):
        raise NameRefused("a name needs at least one letter or digit")
    return text


def printable(text: str) -> bool:
    """Whether ``text`` holds no control, format or unassigned character (a NUL, say, which a
    name never holds and PostgreSQL refuses in text)."""
    return all(unicodedata.category(ch)[0] != "C" for ch in text)


def keys(name: str) -> frozenset[str]:
    """The keys under which ``name`` is taken: any other name with one of them looks the same."""
    base = unicodedata.normalize("NFKC", name)
    return frozenset({skeleton(base.casefold()), skeleton(base).casefold()})


def folded(name: str) -> str:
    """``name`` as a search matches it: NFKC and case-folded (not a skeleton: a person types
    the letters they read)."""
    return unicodedata.normalize("NFKC", name).casefold()


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character replaced by its prototype, NFD again;
    repeated until nothing changes (a prototype's decomposition may hold a character that maps
    on), so that the skeleton of a skeleton is itself."""
    table = _prototypes()
    current = unicodedata.normalize("NFD", text)
    for _ in range(8):
        mapped = unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in current))
        if mapped == current:
            break
        current = mapped
    return current


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it maps to (read once).

    In Unicode's table a prototype is never mapped itself, so each prototype and the
    characters mapped to it form a star. Of a pair that lists only each other, either could
    be the prototype; the one with the lower code point is taken, for both, which keeps
    them one name."""
    table: dict[str, str] = {}
    for char, homoglyphs in confusables_data.items():
        if len(char) != 1:
            continue
        best = _centre(char, [h["c"] for h in homoglyphs])
        if best != char:
            table[char] = best
    return table


def _centre(char: str, homoglyphs: list[str]) -> str:
    """The prototype of ``char``'s star: the homoglyph that lists the most characters, when it
    lists more than ``char`` does; else the lowest of the pair."""
    mine = len(homoglyphs)
    best, most = char, mine
    for other in homoglyphs:
        theirs = len(confusables_data.get(other, ()))
        if theirs > most or (theirs == most and theirs == 1 and mine == 1 and other < best):
            best, most = other, theirs
    return best
