"""Fast card <-> code lookups for the hot paths (``evolve``, legal plays).

Events carry canonical codes (validated by ``decide``), so ``evolve`` may look them up
directly instead of parsing; ``Card.code`` formats on every call, this table does not.
"""

from __future__ import annotations

from domain.cards import Card, codes, standard_pack

PACK: tuple[Card, ...] = tuple(standard_pack())
PACK_CODES: tuple[str, ...] = tuple(codes(PACK))
CARD: dict[str, Card] = dict(zip(PACK_CODES, PACK, strict=True))
CODE: dict[Card, str] = dict(zip(PACK, PACK_CODES, strict=True))
