"""The public standings on a 360 px phone, in Latvian: each row's place, name, place points and
game points are on screen without a sideways swipe, even with long club names (the club and the
rounds may scroll or hide); at desktop width every column shows.

Screenshots go to $E2E_SCREENSHOTS (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import pytest

from demo.simulation import simulate_tournament
from tournaments.models import Club

from .conftest import assert_fits_the_phone, no_violations, t

pytestmark = pytest.mark.django_db(transaction=True)

# The boxes of the cells under the headings `names`, in each of the first rows, and the screen.
CELL_BOXES = """
([names, rows]) => {
  const table = document.querySelector(".standings-live table.standings-table");
  const headings = [...table.querySelectorAll("thead th")].map((th) => th.innerText.trim());
  const columns = [0, 1, ...names.map((name) => headings.indexOf(name))];
  // What is seen of a cell: inside the screen and inside the table's scroller (which clips).
  const scroller = table.closest(".table-scroll").getBoundingClientRect();
  return {
    headings,
    left: Math.max(0, scroller.left),
    right: Math.min(window.innerWidth, scroller.right),
    boxes: [...table.querySelectorAll("tbody tr")].slice(0, rows).flatMap((row) =>
      columns.map((index) => {
        const cell = row.children[index];
        if (!cell) return {index, missing: true};
        const box = cell.getBoundingClientRect();
        return {index, text: cell.innerText, left: box.left, right: box.right,
                width: box.width};
      })
    ),
  };
}
"""


def test_on_a_phone_the_place_name_and_both_points_are_in_view(live_server, open_page, shots):
    tournament = simulate_tournament(
        players=27, rounds=5, deals=12, seed=3, slug="garie-klubi", fast=True
    )
    # Club names as long as the federation's clubs have them.
    for club in Club.objects.all():
        club.name = f"{club.name} Zoles un galda spēļu biedrība"
        club.save()

    for width, height in ((360, 740), (1366, 900)):
        page = open_page(width, height)
        page.goto(f"{live_server.url}/t/{tournament.slug}/standings/")
        page.screenshot(path=str(shots / f"standings-{width}-lv.png"), full_page=True)
        seen = page.evaluate(CELL_BOXES, [[t("Place points"), t("Game points")], 10])
        assert t("Place points") in seen["headings"] and t("Game points") in seen["headings"]
        outside = [
            box
            for box in seen["boxes"]
            if box.get("missing")
            or box["width"] == 0
            or box["left"] < seen["left"] - 0.5
            or box["right"] > seen["right"] + 0.5
        ]
        assert not outside, f"{width} px: cells out of view: {outside[:4]}"
        if width == 360:
            assert_fits_the_phone(page)
        no_violations(page)
    # At desktop width the club shows too.
    assert page.locator(".standings-live tbody tr td", has_text="biedrība").count() >= 1
