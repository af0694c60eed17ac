"""Hostile names through an archive and back: kept exactly."""

from __future__ import annotations

import json

import pytest

from archive.export import tournament_archive
from archive.writing import tournament_import
from tests import hostile
from tests.hostile import HOSTILE_NAMES

pytestmark = pytest.mark.django_db

world = hostile.world  # a fixture: the tournament full of hostile names


class TestNamesAreHarmless:
    def test_the_archive_keeps_them_exactly(self, world):
        archive = tournament_archive(world.tournament)
        copy_ = tournament_import(json.loads(json.dumps(archive)), slug="kopija")
        again = tournament_archive(copy_)
        assert [player["name"] for player in again["players"]] == list(HOSTILE_NAMES)
        assert [table["sheet"] for round_ in again["rounds"] for table in round_["tables"]] == [
            table["sheet"] for round_ in archive["rounds"] for table in round_["tables"]
        ]
