"""The hall display on a 1920×1080 screen across a hall: the seating by table fills the screen,
its type as large as the space allows for any number of tables, and no name on a table's card
breaks over two lines. Screenshots go to $E2E_SCREENSHOTS when set, else the test's tmp_path."""

from __future__ import annotations

import itertools

import pytest

from tests.factories import make_published_round, make_tournament
from tournaments.models import Player, Registration

from .conftest import no_violations

pytestmark = pytest.mark.django_db(transaction=True)

HALL = {"width": 1920, "height": 1080}

# A realistic field: Latvian and Russian names as a federation register spells them, up to 24
# letters (Konstantīns Vasiļjevskis), 120 of them.
FIRST_NAMES = [
    "Konstantīns",
    "Jevgeņijs",
    "Aleksandrs",
    "Kristīne",
    "Jānis",
    "Ģirts",
    "Līga",
    "Ērika",
    "Vladislavs",
    "Dace",
]
LAST_NAMES = [
    "Vasiļjevskis",
    "Aleksandrovs",
    "Bērziņš",
    "Ozoliņa",
    "Kalniņš",
    "Šteins",
    "Krūmiņa",
    "Žagare",
    "Ļebedevs",
    "Čakste",
    "Vītols",
    "Zariņa",
]

# Each name on a card that takes more than one line, or does not fit its card.
WRAPPED_NAMES = """
() => [...document.querySelectorAll(".display-seats li")].filter((item) => {
  const range = document.createRange();
  range.selectNodeContents(item);
  const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
  return lines.size > 1 || item.scrollWidth > item.clientWidth + 1;
}).map((item) => item.textContent)
"""


def hall_display(live_server, open_page, tables: int):
    tournament = make_tournament(slug=f"zale-{tables}", name="Rīgas atklātais čempionāts")
    names = itertools.cycle(
        f"{first} {last}" for last, first in itertools.product(LAST_NAMES, FIRST_NAMES)
    )
    for _, name in zip(range(3 * tables), names, strict=False):
        Registration.objects.create(
            tournament=tournament, player=Player.objects.create(full_name=name)
        )
    make_published_round(tournament)
    page = open_page(**HALL)
    page.goto(f"{live_server.url}/t/{tournament.slug}/display/")
    assert page.locator(".display-table").count() == tables
    return page


@pytest.mark.parametrize("tables", [6, 30, 40])
def test_no_name_on_a_table_card_wraps(live_server, open_page, shots, tables):
    page = hall_display(live_server, open_page, tables)
    page.screenshot(path=str(shots / f"display-1920-{tables}-tables.png"))
    size = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size == [HALL["width"], HALL["height"]], size  # exactly the screen
    assert page.evaluate(WRAPPED_NAMES) == []
    no_violations(page)


def test_a_small_events_names_are_read_across_a_hall(live_server, open_page):
    page = hall_display(live_server, open_page, 6)
    sizes = page.locator(".display-seats li").evaluate_all(
        "items => items.map((item) => parseFloat(getComputedStyle(item).fontSize))"
    )
    assert min(sizes) >= 32, sizes
    # The cards use the screen: together they cover most of their panel.
    covered = page.evaluate(
        """() => {
          const panel = document.querySelector("#display-scroll-tables").getBoundingClientRect();
          const cards = [...document.querySelectorAll(".display-table")]
            .map((card) => card.getBoundingClientRect())
            .reduce((sum, box) => sum + box.width * box.height, 0);
          return cards / (panel.width * panel.height);
        }"""
    )
    assert covered > 0.6, covered
