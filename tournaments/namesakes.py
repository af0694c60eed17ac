"""Players of one name told apart in a list: two "Jānis Bērziņš" of one club are otherwise the
same line twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.names import clean_name, fold_look_alikes, same_name_key
from tournaments.models import Player


def namesake_mark(*, pk: int, licence_number: str) -> str:
    """What tells a player apart from a namesake: his licence, else his number in the register."""
    return licence_number or f"#{pk}"


def namesake_marks(players: Iterable[Player]) -> dict[int, str]:
    """player pk → his mark, for each player of the list whose name another one shares (the
    names compared as a likely duplicate is found: `same_name_key`)."""
    players = list(players)
    counts = Counter(same_name_key(player.full_name) for player in players)
    return {
        player.pk: namesake_mark(pk=player.pk, licence_number=player.licence_number)
        for player in players
        if counts[same_name_key(player.full_name)] > 1
    }


def name_key(full_name: str, club: str) -> tuple[str, str]:
    """A name and club as a likely duplicate in the register is found: no case, no diacritics,
    nothing invisible, a look-alike letter as the Latin one ("Janis Berzins, rigas zoles
    klubs" is "Jānis Bērziņš, Rīgas Zoles klubs", and so is a Cyrillic а in "Rīgas")."""
    return same_name_key(full_name), same_name_key(club)


def club_key(name: str) -> str:
    """A club's name as two clubs that read alike are one (`name_key`)."""
    return same_name_key(name)


def licence_key(licence: str) -> str:
    """Licence numbers compared as people read them: "lv-1" is "LV-1", and so is "LV-1" with a
    hidden letter or a look-alike one."""
    return fold_look_alikes(clean_name(licence)).casefold()
