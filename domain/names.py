"""Names people type (design §2, "Names"): the rule a player's name at a seat follows, and the
one account names will follow — kept here, in one place.

A name is what its owner typed, once surrounding whitespace is stripped, and it is refused
(:class:`~domain.errors.InvalidName`, 400 naming ``name``) unless:

1. it has 1 to 32 characters;
2. every character shows or is a space: no control characters (Cc), no format characters (Cf:
   zero-width space and joiners, the byte-order mark, direction marks and the bidirectional
   overrides and isolates, tag characters, the soft hyphen), no line or paragraph separator
   (Zl, Zp), no surrogate, private-use or unassigned code point, and none of the other
   default-ignorable code points (Unicode's ``Default_Ignorable_Code_Point`` outside Cf:
   variation selectors, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the combining
   grapheme joiner, Khmer's inherent vowels, Mongolian's free variation selectors, the
   reserved ranges), nor the blank braille pattern U+2800 (shown as nothing);
3. it holds a letter or a digit, and does not begin with a combining mark (a name of marks
   alone shows as nothing, or over whatever stands before it).

Two names are **the same name** when their keys (:func:`name_key`) are equal: the name in
compatibility form (NFKC: full-width ``Ｂｏｂ`` is ``Bob``), reduced to its UTS #39 confusable
skeleton (each character replaced by the prototype it may be mistaken for: ``0`` by ``O``,
``I`` and ``1`` by ``l``, Cyrillic ``о`` by Latin ``o``, ``m`` by ``rn``), case-folded, and the
same again in capitals (so ``i``, whose capital is ``I``, is ``l`` too). So "Bob", "BOB",
"B0b", "Вob" (Cyrillic В) and "Ｂob" are one name, as are "Ivy", "ivy" and "lvy";
"Bob\\u200b" is no name at all.
The prototypes come from Unicode's confusables data as the ``confusable-homoglyphs`` package
ships it (pure Python and data; read once, on first use).
"""

from __future__ import annotations

import unicodedata
from functools import cache

from domain.errors import InvalidName

MAX_NAME = 32
BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Categories no character of a name may have: control, format, surrogate, private use,
# unassigned, line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Default_Ignorable_Code_Point (DerivedCoreProperties.txt) outside the format category, and
# the blank braille pattern: ranges of code points, both ends included.
_INVISIBLE = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors (and vowel separator)
    (0x2800, 0x2800),  # braille pattern blank
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # reserved default-ignorables
    (0xE0000, 0xE0FFF),  # tags, variation selectors supplement, reserved default-ignorables
)
# Marks Unicode's confusables data wraps around right-to-left characters (display only).
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


def invisible(ch: str) -> bool:
    """Whether ``ch`` shows as nothing, or may not stand in a name (rule 2)."""
    if unicodedata.category(ch) in _REFUSED_CATEGORIES:
        return True
    point = ord(ch)
    return any(low <= point <= high for low, high in _INVISIBLE)


def check_name(raw: object, whose: str = "a player's name") -> str:
    """The name as it will be shown (stripped); raises :class:`InvalidName` (field ``name``)
    naming the rule it breaks."""
    name = raw.strip() if isinstance(raw, str) else ""
    if not 1 <= len(name) <= MAX_NAME:
        raise InvalidName(f"{whose} must have 1 to {MAX_NAME} characters")
    for ch in name:
        if ch in BIDI_OVERRIDES:
            raise InvalidName(f"{whose} may not hold the bidirectional override U+{ord(ch):04X}")
        if unicodedata.category(ch) == "Cc":
            raise InvalidName(f"{whose} may not hold the control character U+{ord(ch):04X}")
        if invisible(ch):
            raise InvalidName(
                f"{whose} may not hold the invisible or ignorable character U+{ord(ch):04X}"
            )
    if unicodedata.category(name[0]).startswith("M"):
        raise InvalidName(f"{whose} may not begin with a combining mark")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise InvalidName(f"{whose} must hold a letter or a digit")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: the same key, the same name (any string; total).

    The skeleton is taken twice, around case folding, since Unicode's prototypes are not
    case-blind: once as typed (``m`` is ``rn``, Cyrillic ``В`` is ``B``, ``I`` is ``l``), then
    folded and in capitals (``ivy`` as ``IVY``, whose ``I`` is ``l`` too), folded again. So
    "Ivy", "ivy", "IVY" and "lvy" are one name, as are "m" and "rn"."""
    typed = skeleton(unicodedata.normalize("NFKC", name)).casefold()
    return unicodedata.normalize("NFD", skeleton(typed.upper()).casefold())


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: in NFD, each character replaced by its confusable
    prototype, in NFD again."""
    prototypes = _prototypes()
    shown = unicodedata.normalize("NFD", text)
    for _ in range(3):  # a prototype's own characters are prototypes: one more pass settles
        mapped = unicodedata.normalize("NFD", "".join(prototypes.get(ch, ch) for ch in shown))
        if mapped == shown:
            break
        shown = mapped
    return shown


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from Unicode's ``confusables.txt`` as
    ``confusable-homoglyphs`` ships it: a table of each character (or sequence) with those it
    may be mistaken for, both ways. Each source maps to one prototype, and a prototype is
    no source, so the table is stars: a character with one look-alike whose own look-alikes
    are many (or which is a sequence, ``m`` -> ``rn``) maps to it; a prototype with a single
    source forms a pair, and the pair maps to its smaller member (the same key for both,
    which is all a comparison needs); a character with many look-alikes is a prototype."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[str, list[str]] = {
        key.translate(_DIRECTION_MARKS): [e["c"].translate(_DIRECTION_MARKS) for e in entries]
        for key, entries in confusables_data.items()
    }
    prototypes: dict[str, str] = {}
    for char, alike in table.items():
        if len(char) != 1 or len(alike) != 1 or not alike[0]:
            continue
        other = alike[0]
        # a source (its prototype is a sequence, or has other sources), or a pair's larger
        if len(other) > 1 or len(table.get(other, ())) > 1 or other < char:
            prototypes[char] = other
    return prototypes
