"""Every statistic a player's page and the API show, counted again from the tournaments'
archives (`export_tournament`'s JSON) with the engine alone: each confirmed sheet re-scored,
each declared game put in its band by what the payout table paid, each pule followed by the
sheet's own marks. The stored tallies, their sums, the scopes and the answers must agree."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest
from django.urls import reverse

from archive.export import tournament_archive
from demo.simulation import simulate_tournament
from engine import PenaltyPule, Play, score_sheet
from engine.deals import base_scores
from engine.json_contract import sheet_from_json
from engine.rules import (
    LIELAIS_PAYOUT,
    MAZA_ZOLE_WIN,
    ZOLE_PAYOUT,
    Game,
)
from engine.sheet import PuleEvent
from tournaments.models import Player

pytestmark = pytest.mark.django_db

# What each payout unit u of the payout table is called: the band a declared game ended in.
BAND_OF_UNIT = {
    Game.LIELAIS: {
        LIELAIS_PAYOUT.all_tricks: "all_tricks",
        LIELAIS_PAYOUT.high_win: "high_win",
        LIELAIS_PAYOUT.win: "win",
        LIELAIS_PAYOUT.loss: "loss",
        LIELAIS_PAYOUT.low_loss: "low_loss",
        LIELAIS_PAYOUT.no_trick: "no_trick",
    },
    Game.ZOLE: {
        ZOLE_PAYOUT.all_tricks: "all_tricks",
        ZOLE_PAYOUT.high_win: "high_win",
        ZOLE_PAYOUT.win: "win",
        ZOLE_PAYOUT.loss: "loss",
        ZOLE_PAYOUT.low_loss: "low_loss",
        ZOLE_PAYOUT.no_trick: "no_trick",
    },
}


def counted_from_archive(archive: dict) -> dict[int, Counter]:
    """Each player's counts (by his id) from the archive's confirmed tables."""
    player_of_entry = {entry["id"]: entry["player"] for entry in archive["entries"]}
    by_player: dict[int, Counter] = {}
    for round_ in archive["rounds"]:
        for table in round_["tables"]:
            if not table["confirmed"]:
                continue
            counts: dict[str, Counter] = defaultdict(Counter)  # by the sheet's names
            sheet = sheet_from_json(table["sheet"])
            scored = score_sheet(sheet)
            for deal in scored.deals:
                entry = deal.entry
                if isinstance(entry, PenaltyPule):
                    counts[entry.player]["penalty_written"] += 1
                    continue
                playing = [name for name in sheet.players if name != deal.sitting_out]
                for name in playing:
                    counts[name]["deals"] += 1
                if not isinstance(entry, Play):
                    for name in playing:
                        counts[name]["passed"] += 1
                        counts[name]["common_written"] += deal.common_written
                    continue
                declarer = entry.declarer
                unit = base_scores(entry, playing, sheet.rules)[playing.index(declarer)] // (
                    len(playing) - 1
                )
                won = unit > 0
                if entry.game is Game.MAZA_ZOLE:
                    assert unit in (MAZA_ZOLE_WIN, -sheet.rules.small_zole_loss)
                    counts[declarer]["maza_zole_won" if won else "maza_zole_lost"] += 1
                else:
                    band = BAND_OF_UNIT[entry.game][unit]
                    counts[declarer][f"{entry.game.value}_{band}"] += 1
                for name in playing:
                    if name != declarer:
                        counts[name]["defended"] += 1
                        counts[name]["defended_won"] += not won
                event, owner = deal.pule_event, deal.pule_owner
                if event is PuleEvent.COMMON_COLLECTED:
                    counts[declarer]["common_collected"] += 1
                elif event is PuleEvent.OWN_COLLECTED:
                    counts[declarer]["own_collected"] += 1
                elif event is PuleEvent.PERSONAL_COLLECTED:
                    counts[declarer]["personal_collected"] += 1
                    counts[owner]["personal_paid"] += 1
                elif event is PuleEvent.PERSONAL_WRITTEN:
                    counts[declarer]["personal_written"] += 1
            for name, open_pules in scored.open_personal_pules.items():
                counts[name]["settled"] += open_pules
            entry_names = {seat["entry"]: seat["name"] for seat in table["players"]}
            for result in table["results"]:
                name = entry_names[result["entry"]]
                counts[name]["rounds"] += 1
                counts[name]["game_points"] += result["game_points"]
                counts[name][f"place_{result['place']}"] += 1
            for entry, name in entry_names.items():
                by_player.setdefault(player_of_entry[entry], Counter()).update(counts[name])
    return by_player


@pytest.fixture
def tournaments():
    """Three simulated tournaments under different rules: pules, played through the services
    (corrections and penalties among their deals); pules with mazā zole, written at once as
    the benchmarks write them; galdiņš with a common pule, through the services."""
    return [
        simulate_tournament(players=10, rounds=2, deals=12, seed=3),
        simulate_tournament(players=9, rounds=2, deals=24, seed=4, small_zole=True, fast=True),
        simulate_tournament(players=7, rounds=2, deals=9, seed=8, all_pass="galdins_pule"),
    ]


def test_the_page_and_the_api_show_what_the_archives_count(client, tournaments):
    archives = [
        json.loads(json.dumps(tournament_archive(tournament))) for tournament in tournaments
    ]
    counted = [counted_from_archive(archive) for archive in archives]
    field = Counter()
    for counts in counted:
        for player_counts in counts.values():
            field.update(player_counts)
    assert (
        field["deals"] > 0
        and field["passed"] > 0
        and field["maza_zole_won"] + field["maza_zole_lost"] > 0
    )

    for tournament, counts in zip(tournaments, counted, strict=True):
        tournament_field = Counter()
        for player_counts in counts.values():
            tournament_field.update(player_counts)
        for player_id, expected in counts.items():
            player = Player.objects.get(pk=player_id)
            # His career is this one tournament; the field's career is all three.
            for query, field_expected in (
                ({}, field),
                ({"tournament": tournament.slug}, tournament_field),
            ):
                api = client.get(reverse("api:player_statistics", args=[player.pk]), query).json()
                page = client.get(reverse("public:player", args=[player.pk]), query)
                statistics = page.context["statistics"].scoped.statistics
                for his, wanted in (
                    (api["his"], expected),
                    (api["field"], field_expected),
                ):
                    assert {key: value for key, value in his["counts"].items() if value} == {
                        key: value
                        for key, value in wanted.items()
                        if value and key in his["counts"]
                    }
                    assert his["rounds"] == wanted["rounds"]
                    assert his["game_points"] == wanted["game_points"]
                    assert his["places"] == [wanted[f"place_{place}"] for place in (1, 2, 3, 4)]
                assert {
                    key: getattr(statistics.his.tally, key) for key in api["his"]["counts"]
                } == api["his"]["counts"]
                assert {
                    key: getattr(statistics.field.tally, key) for key in api["field"]["counts"]
                } == api["field"]["counts"]
                assert statistics.his.rounds == expected["rounds"]
    # Every table sums to zero: the field's game points too.
    assert field["game_points"] == 0
