"""The engine's messages and seating flags shown in the reader's language.

The engine keeps English; `core.engine_text` translates a message's template and fills in its
params. The catalogues are the translators' (and may be empty), so the tests check the structure
with the real `gettext` and the effect with a fake translation."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from core import engine_text
from core.engine_text import (
    display_name_key,
    error_text,
    flag_text,
    table_warning_text,
    warning_texts,
)
from engine import PlaceScheme, Rules, SheetError
from engine.deals import Play, validate_entry
from engine.rules import Game
from engine.seating import SeatingPlayer, seat_players
from engine.sheet import Sheet, score_sheet
from scoring.services import round_generate_seating
from tests.factories import make_organiser, make_registrations, make_tournament
from tournaments import services
from tournaments.models import AuditRecord, Seat


def sheet_error(*entries, players=("A", "B", "C", "D")) -> SheetError:
    with pytest.raises(SheetError) as caught:
        score_sheet(Sheet(players, entries))
    return caught.value


@pytest.fixture
def fake_latvian(monkeypatch):
    """A translation that marks every text it translates, keeping its placeholders."""
    monkeypatch.setattr(engine_text, "gettext", lambda text: f"«{text}»")


def test_in_english_the_text_is_the_engines_message():
    error = sheet_error(Play(Game.LIELAIS, "B", tricks=5, points=130))
    assert error_text(error) == str(error) == "deal 1: points must be 0-120, got 130"


@pytest.mark.parametrize("language", ["lv", "ru", "en"])
def test_the_template_and_the_deal_prefix_are_translated(language):
    error = sheet_error(Play(Game.LIELAIS, "B", tricks=5, points=130))
    with translation.override(language):
        expected = gettext("deal %(deal)s: %(message)s") % {
            "deal": 1,
            "message": gettext(error.template) % error.params,
        }
        assert error_text(error) == expected


def test_a_translation_phrases_the_whole_message(fake_latvian):
    error = sheet_error(Play(Game.LIELAIS, "B", tricks=5, points=130))
    assert error_text(error) == "«deal 1: «points must be 0-120, got 130»»"


def test_an_error_without_a_deal_has_no_prefix(fake_latvian):
    with pytest.raises(SheetError) as caught:
        PlaceScheme.from_text("6,4,2", "6;4")
    assert error_text(caught.value) == (
        '«place points for a table of 4 must be whole numbers separated by commas, got "6;4"»'
    )


def test_a_plain_message_without_params_is_shown_as_it_is(fake_latvian):
    assert error_text(SheetError("a rating needs 100% of it")) == "«a rating needs 100% of it»"


def test_players_known_by_entry_id_are_named():
    with pytest.raises(SheetError) as caught:
        validate_entry(
            Play(Game.LIELAIS, "99", tricks=5, points=70),
            players=("17", "18", "19"),
            dealer="17",
            rules=Rules(),
        )
    names = {"17": "Anna Ozola", "99": "Pēteris Kalns"}
    assert error_text(caught.value, names=names) == "declarer Pēteris Kalns is not at this table"
    with pytest.raises(SheetError) as caught:
        validate_entry(
            Play(Game.ZOLE, "17", tricks=5, points=70),
            players=("17", "18", "19", "20"),
            dealer="17",
            rules=Rules(),
        )
    assert error_text(caught.value, names=names) == (
        "declarer Anna Ozola deals this deal and sits it out at a 4-player table"
    )
    # Numbers that are not players stay numbers.
    error = sheet_error(Play(Game.LIELAIS, "18", tricks=5, points=130), players=("17", "18", "19"))
    assert error_text(error, names={"130": "Anna"}) == "deal 1: points must be 0-120, got 130"


def test_a_translation_missing_a_placeholder_falls_back_to_english(monkeypatch):
    monkeypatch.setattr(engine_text, "gettext", lambda text: "%(nothing)s" if "%" in text else text)
    error = sheet_error(Play(Game.LIELAIS, "B", tricks=5, points=130))
    assert "points must be 0-120, got 130" in error_text(error)


def test_a_stored_flag_without_a_template_shows_its_detail(fake_latvian):
    assert flag_text({"code": "same_club", "detail": "same club: Rīga (A, B)"}) == (
        "same club: Rīga (A, B)"
    )


def test_a_flag_and_its_parts_are_translated(fake_latvian):
    plan = seat_players([SeatingPlayer(id=f"p{n}", name=f"P{n}") for n in range(4)])
    (table,) = plan.rounds[0]
    (flag,) = [engine_text.flag_dict(flag) for flag in table.flags]
    assert flag["detail"] == "table of 4: turn 1 for " + ", ".join(
        f"P{player[1:]}" for player in table.players
    )
    listed = ", ".join(f"P{player[1:]}" for player in table.players)
    assert flag_text(flag) == f"«table of 4: «turn 1 for {listed}»»"


def test_warnings_come_from_the_flags_that_call_for_a_second_look(fake_latvian):
    class Table:
        def __init__(self, number, flags):
            self.number, self.flags = number, flags

    repeat = {
        "code": "repeat_meeting",
        "detail": "A and B meet again (meeting 2)",
        "template": "%(first)s and %(second)s meet again (meeting %(count)s)",
        "params": {"first": "A", "second": "B", "count": 2},
    }
    kept = {"code": "fixed_table", "detail": "C sits at table 2 as fixed"}
    broken = {"code": "fixed_table", "detail": "C must sit at table 1, not at table 2"}
    four = {"code": "four_table", "detail": "table of 4: turn 1 for A, B, C, D"}
    assert warning_texts([Table(1, [repeat, four]), Table(2, [kept]), Table(3, [broken])]) == [
        "«table 1: «A and B meet again (meeting 2)»»",
        "«table 3: C must sit at table 1, not at table 2»",
    ]
    assert table_warning_text(1, repeat) == warning_texts([Table(1, [repeat])])[0]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("lv", ["Abele", "Azars", "Ābele", "Ёлкин"]),
        ("en", ["Abele", "Ābele", "Azars", "Ёлкин"]),
        ("ru", ["Ёлкин", "Abele", "Ābele", "Azars"]),
    ],
)
def test_lists_are_sorted_in_the_readers_language(language, expected):
    with translation.override(language):
        assert sorted(["Azars", "Ёлкин", "Ābele", "Abele"], key=display_name_key) == expected


# --- pages ----------------------------------------------------------------------------------


@pytest.fixture
def round_with_a_broken_fixed_table(db):
    """A draft round of 6 players where the player fixed to table 1 was swapped to table 2."""
    tournament = make_tournament()
    entries = make_registrations(tournament, 6)
    fixed = entries[0]
    fixed.fixed_table = 1
    fixed.save()
    round_ = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, seed=3, by=None)
    other = Seat.objects.filter(table__round=round_, table__number=2).first().registration
    return round_, fixed, other


def test_a_swap_warns_in_the_readers_language_and_audits_in_english(
    round_with_a_broken_fixed_table, fake_latvian
):
    round_, fixed, other = round_with_a_broken_fixed_table
    shown = services.round_swap_players(round_=round_, first=fixed, second=other, by=None)
    name = fixed.player.full_name
    assert f"«table 2: «{name} must sit at table 1, not at table 2»»" in shown
    audited = AuditRecord.objects.filter(action=AuditRecord.Action.ROUND_SWAP).get()
    assert f"table 2: {name} must sit at table 1, not at table 2" in audited.detail["warnings"]
    table = round_.tables.get(number=2)
    stored = next(flag for flag in table.flags if flag["code"] == "fixed_table")
    assert stored["template"] == "%(player)s must sit at table %(fixed)s, not at table %(table)s"
    assert stored["params"] == {"player": name, "fixed": 1, "table": 2}


def test_the_round_page_shows_flags_and_warnings_through_the_translation(
    round_with_a_broken_fixed_table, fake_latvian, client
):
    round_, fixed, other = round_with_a_broken_fixed_table
    services.round_swap_players(round_=round_, first=fixed, second=other, by=None)
    table = round_.tables.get(number=1)
    table.flags = [*table.flags, {"code": "same_club", "detail": "same club: Ogre (X, Y)"}]
    table.save(update_fields=["flags"])
    client.force_login(make_organiser())
    html = client.get(reverse("organise:round", args=[round_.tournament.slug, 1])).content
    html = html.decode()
    name = fixed.player.full_name
    # The table's flag and the round's warning, both translated; an old flag shows its detail.
    assert html.count(f"«{name} must sit at table 1, not at table 2»") == 2
    assert f"«table 2: «{name} must sit at table 1, not at table 2»»" in html
    assert "same club: Ogre (X, Y)" in html
    assert "«table 1: same club: Ogre (X, Y)»" in html


def test_given_the_sheets_entries_an_error_is_placed_as_the_referee_numbers_deals():
    from engine import Pass, PenaltyPule

    entries = [PenaltyPule("A"), Pass(), PenaltyPule("B"), Pass()]
    error = SheetError("points must be 0-120, got %(value)s", deal=4, value=130)
    assert error_text(error) == "deal 4: points must be 0-120, got 130"  # the command line's
    assert error_text(error, entries=entries) == "deal 2: points must be 0-120, got 130"
    at_penalty = SheetError("too many", deal=3)
    assert error_text(at_penalty, entries=entries) == "penalty pule after deal 1: too many"
    first = SheetError("too many", deal=1)
    assert error_text(first, entries=entries) == "penalty pule before the first deal: too many"
