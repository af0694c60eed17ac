"""Players of one name told apart in a list: two "Jānis Bērziņš" of one club are otherwise the
same line twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.names import search_key
from tournaments.models import Player


def namesake_mark(*, pk: int, licence_number: str) -> str:
    """What tells a player apart from a namesake: his licence, else his number in the register."""
    return licence_number or f"#{pk}"


def namesake_marks(players: Iterable[Player]) -> dict[int, str]:
    """player pk → his mark, for each player of the list whose name another one shares (the
    names compared as a search compares them: no case, no diacritics)."""
    players = list(players)
    counts = Counter(search_key(player.full_name) for player in players)
    return {
        player.pk: namesake_mark(pk=player.pk, licence_number=player.licence_number)
        for player in players
        if counts[search_key(player.full_name)] > 1
    }


def name_key(full_name: str, club: str) -> tuple[str, str]:
    """A name and club as a likely duplicate in the register is found: no case, no diacritics
    ("Janis Berzins, rigas zoles klubs" is "Jānis Bērziņš, Rīgas Zoles klubs")."""
    return search_key(full_name), search_key(club)


def licence_key(licence: str) -> str:
    """Licence numbers compared as people read them: "lv-1" is "LV-1"."""
    return licence.casefold()
