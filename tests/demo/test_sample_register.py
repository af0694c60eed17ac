"""The sample register: loaded any number of times, the same clubs and players."""

import pytest

from demo.sample_register import DEMO_CLUBS, DEMO_PLAYERS, demo_load
from tournaments.models import Club, Player

pytestmark = pytest.mark.django_db


def test_demo_load_is_idempotent():
    first = demo_load()
    counts_after_first = (Club.objects.count(), Player.objects.count())

    second = demo_load()

    assert first == {"clubs": len(DEMO_CLUBS), "players": len(DEMO_PLAYERS)}
    assert second == {"clubs": 0, "players": 0}
    assert (Club.objects.count(), Player.objects.count()) == counts_after_first
    assert counts_after_first == (4, 12)


def test_demo_players_are_spread_over_every_club():
    demo_load()

    for club in Club.objects.all():
        assert club.players.count() == 3
