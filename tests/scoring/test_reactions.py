"""Reactions of the apps above scoring to its writes (scoring/reactions.py): called with what was
written, inside the write's transaction, so a reaction that fails leaves nothing written."""

from __future__ import annotations

import pytest

from ranking import services as ranking_services
from scoring import reactions, services
from scoring.models import TableResult
from tests.factories import deals_on_sheet, make_entries, make_tournament
from tests.scoring.test_standings_selectors import (
    REFEREE,
    favourite_first,
    play_round_at,
    publish_next_round,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    tournament = make_tournament(deals_per_round=3, rounds_planned=1)
    make_entries(tournament, 3)
    round_ = publish_next_round(tournament)
    table = round_.tables.get()
    play_round_at(table, favourite_first)
    return table


@pytest.fixture
def reaction_lists(monkeypatch):
    """Empty reaction lists for the test (the ranking's own reactions set aside)."""
    for name in ("_table_confirmed", "_table_unlocked", "_round_closed"):
        monkeypatch.setattr(reactions, name, [])
    return reactions


def confirm(table):
    confirmer = table.seats.order_by("position").first().entry
    return services.table_confirm(
        table=table, writer=REFEREE, confirmer=confirmer, deals_seen=deals_on_sheet(table)
    )


def test_the_ranking_follows_confirmations_unlocks_and_closed_rounds():
    assert ranking_services.rating_apply_table in reactions._table_confirmed
    assert ranking_services.rating_remove_table in reactions._table_unlocked
    assert ranking_services.ranking_round_closed in reactions._round_closed


def test_a_reaction_is_given_the_confirmed_result(table, reaction_lists):
    seen = []
    reaction_lists.on_table_confirmed(lambda *, table_result: seen.append(table_result))

    confirm(table)

    assert seen == [TableResult.objects.get(table=table)]
    assert seen[0].seats.count() == 3  # the seats' results were written before it was called


def test_a_failing_reaction_undoes_the_confirmation(table, reaction_lists):
    def refuse(*, table_result):
        raise RuntimeError("the rating store is down")

    reaction_lists.on_table_confirmed(refuse)

    with pytest.raises(RuntimeError):
        confirm(table)

    assert not TableResult.objects.filter(table=table).exists()


def test_a_reaction_registered_twice_runs_once(table, reaction_lists):
    calls = []

    def count(*, table_result):
        calls.append(table_result.pk)

    reaction_lists.on_table_confirmed(count)
    reaction_lists.on_table_confirmed(count)

    confirm(table)

    assert len(calls) == 1
