"""A tournament played on a laptop at a venue with no internet, moved afterwards to the
federation's server: `export_tournament` on one database, `import_tournament` on another, and
everything the public reads of it is the same on both sides.

Each side is its own SQLite file, migrated, written and read by its own `manage.py` process, as
on the two machines; the same script reads both, naming players rather than database ids, which
differ."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.environment import SETTINGS_VARIABLES

ROOT = Path(__file__).resolve().parent.parent.parent
SLUG = "venue-cup"

# The season the tournament counts for: the federation's server has it, and so has the laptop.
SEASON = """
import datetime
import django
django.setup()
from ranking.models import Season
Season.objects.create(
    name="Venue season", starts_on=datetime.date(2000, 1, 1), ends_on=datetime.date(2100, 12, 31)
)
"""

# What a visitor reads of the tournament: the standings with every figure, the season ranking's
# points and the ratings, and every table's sheet as the engine scores it from the stored deals.
READ = """
import json, sys
import django
django.setup()
from engine import score_sheet
from engine.json_contract import scored_sheet_to_json
from ranking.models import Season
from ranking.selectors import rating_list, season_standings
from scoring.selectors import tournament_standings
from scoring.sheet.lines import engine_sheet
from scoring.sheet.plain_sql import table_results
from tournaments.models import Seat, Table, Tournament
from tournaments.rule_set import round_rule_set

tournament = Tournament.objects.get(slug=sys.argv[1])
standings = tournament_standings(tournament=tournament)
rows = [
    {
        "position": row.position, "rank": row.rank, "rank_label": row.rank_label,
        "name": row.name, "club": row.club, "team": row.team,
        "place_points": str(row.place_points), "game_points": row.game_points, "wins": row.wins,
        "rounds": {
            str(number): [cell.game_points, str(cell.place_points), cell.place, cell.provisional]
            for number, cell in row.rounds.items()
        },
    }
    for row in standings.rows
]
ranking = [
    [row.rank, row.name, row.club, row.points, row.wins, row.game_points, row.counted, row.events]
    for row in season_standings(season=Season.objects.get(name="Venue season")).rows
]
ratings = [
    [row.rank, row.name, round(row.mu, 9), round(row.sigma, 9), row.tables]
    for row in rating_list()
]
sheets = {}
tables = Table.objects.filter(round__tournament=tournament).select_related("round", "result")
for table in tables.order_by("round__number", "number"):
    seats = list(Seat.objects.filter(table=table).select_related("registration__player"))
    names = {str(seat.registration_id): seat.registration.player.full_name for seat in seats}
    sheet = engine_sheet(
        table,
        seats=seats,
        results=table_results(table.id),
        rules=round_rule_set(table.round).rules,
        closed=hasattr(table, "result"),
    )
    scored = json.dumps(scored_sheet_to_json(score_sheet(sheet)), sort_keys=True)
    for key, name in names.items():
        scored = scored.replace(json.dumps(key), json.dumps(name))
    sheets[f"round {table.round.number} table {table.number}"] = {
        "confirmed": hasattr(table, "result"), "sheet": json.loads(scored)
    }
print(json.dumps({"standings": rows, "ranking": ranking, "ratings": ratings, "sheets": sheets}))
"""


def manage(database: Path, *arguments: str) -> str:
    """Run manage.py (or, with "-c", a script) on this database alone, as its own process."""
    # Nothing of this run's settings (a PostgreSQL database, a shared Redis cache) leaks in.
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_SETTINGS_MODULE="zole_site.settings",
        RATING_UPDATES_IN_BACKGROUND="0",
    )
    command = list(arguments) if arguments[0] == "-c" else ["manage.py", *arguments]
    completed = subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def test_a_played_tournament_moves_to_another_database_unchanged(tmp_path):
    venue, federation = tmp_path / "venue.sqlite3", tmp_path / "federation.sqlite3"
    archive = tmp_path / "venue-cup.json"
    for database in (venue, federation):
        manage(database, "migrate", "--noinput", "-v0")
        manage(database, "-c", SEASON)
    # Three rounds played through the services: corrections, confirmations, closed rounds.
    played = ("--players", "12", "--rounds", "3", "--deals", "12", "--seed", "5")
    manage(venue, "simulate_tournament", *played, "--slug", SLUG, "-v0")

    manage(venue, "export_tournament", SLUG, "--output", str(archive), "-v0")
    imported = manage(federation, "import_tournament", str(archive), "--grant-roles")
    assert imported.split()[-1] == SLUG

    at_the_venue = json.loads(manage(venue, "-c", READ, SLUG))
    on_the_server = json.loads(manage(federation, "-c", READ, SLUG))
    # Not an empty comparison: a finished tournament, every table confirmed, ranking points given.
    assert len(at_the_venue["standings"]) == 12
    assert len(at_the_venue["sheets"]) == 12  # tables of 3
    assert all(table["confirmed"] for table in at_the_venue["sheets"].values())
    assert all(len(table["sheet"]["deals"]) >= 12 for table in at_the_venue["sheets"].values())
    assert len(at_the_venue["ranking"]) == 12 and at_the_venue["ranking"][0][3] > 0
    assert on_the_server["standings"] == at_the_venue["standings"]
    assert on_the_server["sheets"] == at_the_venue["sheets"]
    assert on_the_server["ranking"] == at_the_venue["ranking"]
    assert on_the_server["ratings"] == at_the_venue["ratings"]
