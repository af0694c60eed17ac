"""Scoring's signals to the apps above it (scoring/reactions.py): the receivers get what was
written, inside the write's transaction, so a receiver that fails leaves nothing written."""

from __future__ import annotations

import json

import pytest

from archive.export import tournament_archive
from archive.writing import tournament_import
from ranking import receivers
from scoring import reactions, services
from scoring.models import TableResult
from tests.factories import deals_on_sheet, make_registrations, make_tournament
from tests.tournament_play import (
    REFEREE,
    favourite_first,
    play_round_at,
    publish_next_round,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    tournament = make_tournament(deals_per_round=3, rounds_planned=1)
    make_registrations(tournament, 3)
    round_ = publish_next_round(tournament)
    table = round_.tables.get()
    play_round_at(table, favourite_first)
    return table


RANKING = (
    (reactions.table_confirmed, receivers.table_confirmed),
    (reactions.table_unlocked, receivers.table_unlocked),
    (reactions.round_closed, receivers.round_closed),
    (reactions.tournament_imported, receivers.tournament_imported),
)


@pytest.fixture
def connect():
    """Connects a test's receivers to a signal of scoring, the ranking's set aside; after the
    test, the test's receivers are gone and the ranking's are back."""
    connected = []

    def connect_to(signal, receiver):
        signal.connect(receiver, weak=False)
        connected.append((signal, receiver))

    for signal, receiver in RANKING:
        signal.disconnect(receiver)
    yield connect_to
    for signal, receiver in connected:
        signal.disconnect(receiver)
    for signal, receiver in RANKING:
        signal.connect(receiver)


def confirm(table):
    confirmer = table.seats.order_by("position").first().registration
    return services.table_confirm(
        table=table, writer=REFEREE, confirmer=confirmer, deals_seen=deals_on_sheet(table)
    )


def test_the_ranking_follows_confirmations_unlocks_closed_rounds_and_imports():
    try:
        assert all(signal.disconnect(receiver) for signal, receiver in RANKING)
    finally:
        for signal, receiver in RANKING:
            signal.connect(receiver)


def test_a_reaction_is_given_the_confirmed_result(table, connect):
    seen = []

    def look(*, table_result, **_signal):
        seen.append(table_result)

    connect(reactions.table_confirmed, look)

    confirm(table)

    assert seen == [TableResult.objects.get(table=table)]
    assert seen[0].seats.count() == 3  # the seats' results were written before it was called


def test_a_failing_reaction_undoes_the_confirmation(table, connect):
    def refuse(*, table_result, **_signal):
        raise RuntimeError("the rating store is down")

    connect(reactions.table_confirmed, refuse)

    with pytest.raises(RuntimeError):
        confirm(table)

    assert not TableResult.objects.filter(table=table).exists()


def test_a_reaction_registered_twice_runs_once(table, connect):
    calls = []

    def count(*, table_result, **_signal):
        calls.append(table_result.pk)

    connect(reactions.table_confirmed, count)
    connect(reactions.table_confirmed, count)

    confirm(table)

    assert len(calls) == 1


def test_an_imported_tournament_is_announced_inside_the_import(table, connect):
    confirm(table)
    archive = json.loads(json.dumps(tournament_archive(table.round.tournament)))
    seen = []

    def look(*, tournament, **_signal):
        seen.append(
            (
                tournament.slug,
                TableResult.objects.filter(table__round__tournament=tournament).count(),
            )
        )
        raise RuntimeError("the rating store is down")

    connect(reactions.tournament_imported, look)

    with pytest.raises(RuntimeError):
        tournament_import(archive, slug="imported")

    assert seen == [("imported", 1)]  # the tables were written when it heard
    assert not Tournament.objects.filter(slug="imported").exists()
