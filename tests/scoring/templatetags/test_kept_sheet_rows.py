"""A row of the sheet as scoring/_sheet_row.html writes it (scoring.templatetags.kept_sheet_rows):
the deal's number and correction link, the game, its declarer and figures, the pule events, each
player's box."""

import itertools

import pytest
from django.utils import translation

from engine import Pass, PenaltyPule, Play
from engine.rules import Game
from scoring import services
from scoring.services import Writer
from scoring.sheet.reader import table_sheet
from scoring.templatetags.kept_sheet_rows import forget_rows, row_html
from tests.factories import make_published_round, play_round_with, seat_keys

pytestmark = pytest.mark.django_db

keys = (f"row-key-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.9")
PAGE = '/r/x"y/'


@pytest.fixture(autouse=True)
def no_rows_kept():
    forget_rows()  # a row id of another test's database may be this test's


@pytest.fixture
def table():
    """A table of four (the dealer sits out), pules and mazā zole played, names to escape."""
    round_ = make_published_round(players=4)
    play_round_with(round_, small_zole=True)
    table = round_.tables.get()
    for seat, name in zip(
        table.seats.select_related("registration__player").order_by("position"),
        ['Jānis "Jo" <Ozols>', "Anna Kalna", "Pēteris Zariņš", "Ilze & Co"],
        strict=True,
    ):
        seat.registration.player.full_name = name
        seat.registration.player.save()
    return table


def record(table, *entries):
    start = len(table_sheet(table_id=table.pk).rows) + 1
    for position, entry in enumerate(entries, start=start):
        services.deal_record(
            table=table, entry=entry, position=position, client_key=next(keys), writer=REFEREE
        )


def playing(table, deal_index):
    """The players of the deal at `deal_index` (0-based): all but its dealer."""
    sheet = table_sheet(table_id=table.pk)
    players = seat_keys(table)
    dealer = sheet.next_dealer.key if deal_index == sheet.deals_played else None
    return [key for key in players if key != dealer]


def rows(table, **kwargs):
    sheet = table_sheet(table_id=table.pk)
    return [
        row_html(row, **{"editable": True, "page_url": PAGE, "pules": True, **kwargs})
        for row in sheet.rows
    ], sheet


def test_a_won_lielais_shows_its_declarer_figures_and_each_players_box(table):
    _first, second, _third, _fourth = seat_keys(table)
    record(table, Play(Game.LIELAIS, second, tricks=5, points=75))  # the first seat deals
    (html,), sheet = rows(table)
    assert html.startswith('<tr id="entry-1" class="entry-row">')
    assert '<a class="entry-no-link" href="/r/x&quot;y/?correct=1#entry-form"' in html
    assert '<span class="game">lielais</span>' in html
    # The declarer's name and his figures apart (they ran together: "Anna K.75/5").
    assert (
        '<span class="game">lielais</span> <span class="entry-play"><span class="declarer">'
        '<span class="entry-name-full">Anna K.</span>'
        '<abbr class="entry-name-short" title="Anna Kalna">AK</abbr></span> '
        '<span class="figures">75/5</span></span>'
    ) in html
    # The dealer sits out and pays like the other two (RULES: a table of four).
    assert (
        '<td class="entry-cell is-dealer sits-out"><abbr class="entry-dealer-mark" '
        'title="deals and sits out">D</abbr> <span class="total">-1</span> '
        '<small class="delta score-negative">-1</small></td>'
    ) in html
    assert (
        '<td class="entry-cell is-declarer"><span class="total">3</span> '
        '<small class="delta score-positive">+3</small></td>'
    ) in html
    assert html.count('<small class="delta score-negative">-1</small>') == 3
    assert html.endswith(
        '<td class="entry-pules"></td><td class="entry-action"><a class="entry-correct" '
        'href="/r/x&quot;y/?correct=1#entry-form">correct</a></td></tr>\n'
    )
    assert [cell.total for cell in sheet.rows[0].cells] == [-1, 3, -1, -1]


def test_names_are_escaped(table):
    first, second, _third, _fourth = seat_keys(table)
    record(
        table,
        Play(Game.LIELAIS, second, tricks=5, points=75),
        Play(Game.LIELAIS, first, tricks=5, points=75),  # the second seat deals
    )
    html, _sheet = rows(table)
    name = "Jānis &quot;Jo&quot; &lt;Ozols&gt;"
    assert f'<span class="entry-name-full">{name}</span>' in html[1]
    assert f'title="{name}"' in html[1]
    assert "<Ozols>" not in "".join(html)


def test_a_pass_writes_a_common_pule_and_the_mark_counts_them(table):
    record(table, Pass(), Pass())
    html, _sheet = rows(table)
    assert '<span class="entry-pule-event">common pule written</span>' in html[0]
    assert '<span class="entry-pule-mark common" title="common pules open">○×2</span>' in html[1]
    assert 'entry-pules-inline" title="common pules open"> ○×2</span>' in html[1]


def test_a_penalty_has_no_number_and_a_correction_says_its_version_and_why(table):
    a = seat_keys(table)[0]
    record(table, PenaltyPule(a))
    declarer = playing(table, 0)[0]
    record(table, Play(Game.ZOLE, declarer, tricks=6, points=90))
    services.deal_correct(
        table=table,
        position=2,
        entry=Play(Game.ZOLE, declarer, tricks=7, points=95),
        base_version=1,
        client_key=next(keys),
        reason='"95" <not 90>',
        writer=REFEREE,
    )
    html, _sheet = rows(table)
    assert 'class="entry-row entry-penalty"' in html[0]
    assert ">–<svg" in html[0]  # no deal number
    assert 'class="entry-pule-mark personal" title="open personal pules">P</span>' in html[0]
    assert 'class="entry-row entry-corrected"' in html[1]
    assert (
        '<span class="corrected" title="&quot;95&quot; &lt;not 90&gt;">corrected, version 2</span>'
        in html[1]
    )


def test_a_mazā_zole_says_its_tricks_in_the_readers_language(table):
    record(table, Play(Game.MAZA_ZOLE, playing(table, 0)[0], tricks=0))
    with translation.override("lv"):
        html, _sheet = rows(table)
        assert '<span class="figures">0 stiķu</span>' in html[0]
        assert "dala un nespēlē" in html[0]
        assert ">labot</a>" in html[0]
    with translation.override("en"):
        assert '<span class="figures">0 tricks</span>' in rows(table)[0][0]


def test_the_public_sheet_has_no_correction_links_and_no_pules_column_without_pules(table):
    record(table, Play(Game.LIELAIS, playing(table, 0)[0], tricks=5, points=75))
    (html,), _sheet = rows(table, editable=False, pules=False)
    assert "?correct=" not in html and "entry-action" not in html
    assert 'entry-pules"' not in html
    assert '<th scope="row" class="entry-no">1</th>' in html
