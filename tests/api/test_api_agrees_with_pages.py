"""Every figure the API gives is the figure the page shows, on simulated tournaments: tables of 3
and 4, the federation's rules (lzf) and place points in thirds, shared places, a table confirmed
when time was called, a round in play (provisional standings). The pages are read as a visitor
reads them, in Latvian: the text of their HTML tables."""

from __future__ import annotations

import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.selectors import points_text
from tests.api.conftest import api_get, api_standings

pytestmark = pytest.mark.django_db


class CellTexts(HTMLParser):
    """The rows of data cells (td) of every HTML table, each cell's text with its whitespace
    collapsed, by the id of the section the table is in ("" outside any)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, list[list[str]]]] = []
        self.section = ""
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            self.section = dict(attrs).get("id") or ""
        elif tag == "table":
            self.tables.append((self.section, []))
        elif tag == "tr":
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row.append(" ".join(" ".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.row:
                self.tables[-1][1].append(self.row)
            self.row = None
        elif tag == "section":
            self.section = ""

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def visitor() -> Client:
    """A visitor reading the site in Latvian (place points like 4,58 are written its way)."""
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "lv"
    return client


def page_tables(url: str) -> list[tuple[str, list[list[str]]]]:
    response = visitor().get(url)
    assert response.status_code == 200, url
    parser = CellTexts()
    parser.feed(response.content.decode())
    return parser.tables


def shown(place_points: str) -> str:
    """The API's exact place points ("4/3") as the page writes them (1⅓)."""
    with translation.override("lv"):
        return points_text(Fraction(place_points))


# -- The standings -------------------------------------------------------------------------------


def standings_as_shown(body: dict, *, teams: bool) -> list[list[str]]:
    rows = []
    for row in body["results"]:
        cells = [row["rank_label"], row["name"], row["club"]]
        if teams:
            cells.append(row["team"])
        cells += [shown(row["place_points"]), str(row["game_points"])]
        for number in body["round_numbers"]:
            cell = row["rounds"].get(str(number))
            if cell is None:
                cells.append("–")
                continue
            text = f"{cell['game_points']} · {shown(cell['place_points'])}"
            cells.append(text + " *" if cell["provisional"] else text)
        rows.append(cells)
    return rows


@pytest.mark.parametrize("provisional", [False, True], ids=["confirmed", "provisional"])
def test_the_standings_give_every_figure_of_the_page(proof, provisional):
    query = {"provisional": "true"} if provisional else {}
    body = api_standings(proof.slug, **query)
    url = reverse("public:standings", args=[proof.slug]) + ("?provisional=1" if provisional else "")

    (_section, page_rows), *_teams = page_tables(url)

    assert standings_as_shown(body, teams=proof.teams_enabled) == page_rows
    # What makes the proof one: thirds and halves, tables of 3 and 4, a table in play.
    exact = [cell["place_points"] for row in body["results"] for cell in row["rounds"].values()]
    assert any("/" in points for points in exact) or proof.slug == "proof-lzf"
    assert body["provisional_tables"] == (1 if provisional else 0)
    assert body["round_numbers"] == [1, 2, 3] if provisional else [1, 2]
    assert body["is_live"] is True


def test_the_standings_figures_the_page_reads_from_its_selector(proof):
    body = api_standings(proof.slug)
    standings = visitor().get(reverse("public:standings", args=[proof.slug])).context["standings"]

    assert [
        (
            row["position"],
            row["rank"],
            row["shared"],
            row["player_id"],
            row["wins"],
            Fraction(row["place_points"]),
        )
        for row in body["results"]
    ] == [
        (row.position, row.rank, row.shared, row.player_id, row.wins, row.place_points)
        for row in standings.rows
    ]
    assert body["order"] == list(standings.order)


def test_one_rounds_standings_are_the_pages(proof):
    body = api_standings(proof.slug, round=2)
    (_section, page_rows), *_teams = page_tables(
        reverse("public:standings", args=[proof.slug]) + "?round=2"
    )

    assert body["only_round"] == 2
    assert standings_as_shown(body, teams=proof.teams_enabled) == page_rows


# -- The rounds' seating and the tables ----------------------------------------------------------


def seating_as_shown(table: dict) -> list[list[str]]:
    rows = []
    for seat in table["seats"]:
        player = seat["name"] + (" ●" if seat["deals_first"] else "")
        player += f" {seat['club']}" if seat["club"] else ""
        if table["confirmed"]:
            rows.append([player, str(seat["game_points"]), shown(seat["place_points"])])
        else:
            rows.append([player])
    return rows


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_rounds_seating_and_results_are_the_pages(proof, number):
    body = api_get(f"/tournaments/{proof.slug}/rounds/{number}")
    url = reverse("public:round", args=[proof.slug, number])
    html = visitor().get(url).content.decode()

    seating = {section: rows for section, rows in page_tables(url) if section.startswith("table-")}

    assert {f"table-{table['number']}": seating_as_shown(table) for table in body["tables"]} == (
        seating
    )
    assert sorted(len(table["seats"]) for table in body["tables"]) == [3, 3, 4]
    for table in body["tables"]:
        heading = re.search(rf'id="table-{table["number"]}".*?</h2>', html, re.DOTALL).group()
        after = table["time_called_after"]
        assert ('class="time-called"' in heading) == (after is not None)
        if after is not None:
            assert f" {after}" in heading
            assert number == 2


def test_a_confirmed_tables_result_is_the_seating_pages_and_its_sheet_opens(proof):
    for number in (1, 2):
        round_ = api_get(f"/tournaments/{proof.slug}/rounds/{number}")
        for seated in round_["tables"]:
            table = Client().get(seated["url"]).json()
            assert [
                (place["name"], place["game_points"], place["place_points"])
                for place in table["results"]
            ] == [
                (seat["name"], seat["game_points"], seat["place_points"])
                for seat in seated["seats"]
            ]
            assert table["time_called"] == (seated["time_called_after"] is not None)
            page = reverse("public:table", args=[proof.slug, number, seated["number"]])
            assert visitor().get(page).status_code == 200
    in_play = api_get(f"/tournaments/{proof.slug}/rounds/3")["tables"][0]
    assert in_play["url"] is None
