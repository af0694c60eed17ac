"""A complete, realistic tournament made through the same services as real use.

Clubs and players (Latvian names, licence numbers) are imported as a CSV would be; every round is
created, seated (the tournament's seating modes), published; every table's deals are random but
valid (`engine.simulate.random_deal`, with the dealer rotation), entered one by one with
`deal_record` through the table's link, now and then mistyped and corrected with `deal_correct`
before the table is confirmed by a player seated there; then the round is closed.

The tournament's options come from a rule-set preset (`engine.presets`: `classic`, the seeds'
rules; `lzf` and `lzf-rondo`, the federation's), every option of it, then any given deal count,
all-pass rule or mazā zole on top. Each deal is valid under the round's rules: everyone passing
writes a pule or plays galdiņš as they say, and a galdiņš entry always comes from
`engine.simulate.random_deal` (one place to give it what a rule set needs, such as the card draw
of a rondo galdiņš).

Everything random comes from the seed, and each table draws from its own generator, so a seed
gives the same tournament on a fresh database (the seating reads registration ids, so another
database may seat differently) and the `fast` path gives the same results as the services path.

`fast` is for load tests only: it checks every table's sheet with the engine, as the services
do, but writes the deal versions, confirmations and seat results in bulk, with one audit record
per confirmed table instead of one per deal.
"""

from __future__ import annotations

import csv
import io
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.text import slugify

from core.engine_text import error_text
from engine import PenaltyPule, Play, Rules, SheetError, dealer_for, validate_entry
from engine.deals import Deal, SheetLine
from engine.presets import PRESETS
from engine.rules import IMPOSSIBLE_POINTS, TOTAL_POINTS
from engine.seating import table_sizes
from engine.sheet import Sheet, score_sheet
from engine.simulate import PENALTY_ODDS, random_deal
from engine.standings import round_results
from engine.statistics import SeatTally, seat_tallies
from scoring import services as scoring_services
from scoring.models import DealResult, SeatResult, TableResult
from scoring.services import Writer
from scoring.sheet.lines import result_fields
from tournaments import services as tournament_services
from tournaments.bounds import MAX_DEALS_PER_ROUND
from tournaments.models import (
    AuditRecord,
    Club,
    Player,
    Round,
    RoundStatus,
    Seat,
    Table,
    TableToken,
    Tournament,
)
from tournaments.rule_set import RuleSet, preset_options, round_rule_set
from tournaments.services import ServiceError

# (city, its genitive): clubs and tournaments are named "Cēsu ...", "Rīgas ...".
CITIES: tuple[tuple[str, str], ...] = (
    ("Rīga", "Rīgas"),
    ("Liepāja", "Liepājas"),
    ("Daugavpils", "Daugavpils"),
    ("Jelgava", "Jelgavas"),
    ("Jūrmala", "Jūrmalas"),
    ("Ventspils", "Ventspils"),
    ("Rēzekne", "Rēzeknes"),
    ("Valmiera", "Valmieras"),
    ("Jēkabpils", "Jēkabpils"),
    ("Ogre", "Ogres"),
    ("Cēsis", "Cēsu"),
    ("Tukums", "Tukuma"),
    ("Sigulda", "Siguldas"),
    ("Kuldīga", "Kuldīgas"),
    ("Talsi", "Talsu"),
    ("Bauska", "Bauskas"),
    ("Smiltene", "Smiltenes"),
    ("Madona", "Madonas"),
    ("Dobele", "Dobeles"),
    ("Alūksne", "Alūksnes"),
    ("Gulbene", "Gulbenes"),
    ("Limbaži", "Limbažu"),
    ("Saldus", "Saldus"),
    ("Krāslava", "Krāslavas"),
    ("Ludza", "Ludzas"),
    ("Preiļi", "Preiļu"),
    ("Aizkraukle", "Aizkraukles"),
    ("Balvi", "Balvu"),
    ("Valka", "Valkas"),
)
CLUB_KINDS = ("Zoles klubs", "Dūzis", "Kārtis", "Pule", "Trumpis", "Zolmaņi", "Lielais", "Kungi")

MALE_FIRST_NAMES = (
    "Jānis", "Andris", "Pēteris", "Kārlis", "Ģirts", "Edgars", "Mārtiņš", "Aivars", "Uldis",
    "Juris", "Valdis", "Oskars", "Raimonds", "Guntis", "Ivars", "Aigars", "Normunds", "Māris",
    "Arvīds", "Dainis", "Kristaps", "Roberts", "Artūrs", "Mārcis", "Ēriks", "Gatis", "Jurģis",
    "Krišjānis", "Valters", "Raivis", "Ainārs", "Uģis", "Rūdolfs", "Žanis", "Ojārs", "Vilnis",
    "Imants", "Agris", "Ēvalds", "Gunārs",
)  # fmt: skip
FEMALE_FIRST_NAMES = (
    "Anna", "Līga", "Ieva", "Dace", "Māra", "Ērika", "Inese", "Ilze", "Kristīne", "Laura",
    "Zane", "Santa", "Baiba", "Sandra", "Gunta", "Rūta", "Dzintra", "Aija", "Agnese", "Elīna",
    "Iveta", "Sarmīte", "Vija", "Zaiga", "Ināra", "Solvita", "Ligita", "Daiga", "Evija",
    "Skaidrīte", "Jolanta", "Gundega", "Madara", "Līva", "Ģertrūde", "Austra",
)  # fmt: skip
# Masculine forms; `feminine_surname` gives the women's.
SURNAMES = (
    "Bērziņš", "Kalniņš", "Ozoliņš", "Jansons", "Ozols", "Liepiņš", "Krūmiņš", "Balodis",
    "Eglītis", "Zariņš", "Pētersons", "Vītols", "Kļaviņš", "Kārkliņš", "Vanags", "Lācis",
    "Zvirbulis", "Jēkabsons", "Zaķis", "Siliņš", "Strazdiņš", "Lapiņš", "Dūmiņš", "Cīrulis",
    "Šteins", "Grīnbergs", "Āboliņš", "Ziediņš", "Ķēniņš", "Ābele", "Priede", "Liepa", "Čakste",
    "Gailis", "Sproģis", "Rozītis", "Āriņš", "Lūsis", "Mednis", "Bļodnieks", "Puriņš",
    "Vilks", "Kociņš", "Ģēģeris",
)  # fmt: skip

WOMEN_SHARE = 0.25
NO_CLUB_SHARE = 0.1
PLAYERS_PER_CLUB = 6
MISTYPE_ODDS = 0.02  # a deal entered wrong at first and corrected before the table confirms
CLIENT_KEY_PREFIX = "sim"


def feminine_surname(surname: str) -> str:
    """The women's form of a Latvian surname: Bērziņš → Bērziņa, Lācis → Lāce, Jansons →
    Jansone, Bļodnieks → Bļodniece, Ozols → Ozola; surnames ending in -a or -e (Liepa, Čakste)
    are the same for both."""
    if surname.endswith("nieks"):
        return surname[:-2] + "ce"
    if surname.endswith("is"):
        return surname[:-2] + "e"
    if surname.endswith("sons"):
        return surname[:-1] + "e"
    if surname.endswith(("š", "s")):
        return surname[:-1] + "a"
    return surname


@dataclass(frozen=True, slots=True)
class SimulatedPlayer:
    full_name: str
    club: str  # "" for a player with no club
    licence_number: str


def simulated_clubs(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """`count` different clubs, as (name, city)."""
    every_club = [(f"{genitive} {kind}", city) for city, genitive in CITIES for kind in CLUB_KINDS]
    return rng.sample(every_club, min(count, len(every_club)))


def simulated_players(
    seed: int, count: int, *, clubs: Sequence[str], taken_licences: set[str]
) -> list[SimulatedPlayer]:
    """`count` players with Latvian names (all different while the name lists allow it), spread
    over `clubs`, with licence numbers not in `taken_licences`.

    Names, clubs and licences draw from generators of their own: licences already taken in the
    database change the licences only, never who plays."""
    names_rng = random.Random(f"{seed}/names")
    clubs_rng = random.Random(f"{seed}/clubs of players")
    licences_rng = random.Random(f"{seed}/licences")
    names_used: set[str] = set()
    name_pool = (len(MALE_FIRST_NAMES) + len(FEMALE_FIRST_NAMES)) * len(SURNAMES)
    licences_used = set(taken_licences)
    players = []
    for _ in range(count):
        while True:
            surname = names_rng.choice(SURNAMES)
            if names_rng.random() < WOMEN_SHARE:
                full_name = f"{names_rng.choice(FEMALE_FIRST_NAMES)} {feminine_surname(surname)}"
            else:
                full_name = f"{names_rng.choice(MALE_FIRST_NAMES)} {surname}"
            # Namesakes happen in real tournaments too, but only once the lists run short.
            if full_name not in names_used or len(names_used) >= name_pool // 2:
                break
        names_used.add(full_name)
        while True:
            licence = f"LV-{licences_rng.randrange(1, 1_000_000):06d}"
            if licence not in licences_used:
                break
        licences_used.add(licence)
        club = "" if not clubs or clubs_rng.random() < NO_CLUB_SHARE else clubs_rng.choice(clubs)
        players.append(SimulatedPlayer(full_name, club, licence))
    return players


@dataclass(frozen=True, slots=True)
class PlannedEntry:
    """One entry of a table's sheet; `mistyped` is what was entered first, then corrected."""

    entry: SheetLine
    mistyped: Deal | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TablePlan:
    """What happens at one table: its sheet in order, and who confirms it (players are keys)."""

    entries: tuple[PlannedEntry, ...]
    confirmer: str


def _mistyped(
    rng: random.Random, deal: Deal, *, players: Sequence[str], dealer: str, rules: Rules
) -> tuple[Deal, str] | None:
    """A valid but wrong version of `deal`, the kind a referee types and then corrects."""
    candidates: list[tuple[Deal, str]] = []
    if isinstance(deal, Play) and deal.points is not None:
        typo = deal.points + rng.choice((-20, -10, 10, 20))
        if 0 <= typo <= TOTAL_POINTS and typo not in IMPOSSIBLE_POINTS:
            typoed = Play(deal.game, deal.declarer, tricks=deal.tricks, points=typo)
            candidates.append((typoed, "nepareizi ierakstīti punkti"))
    other = random_deal(rng, players=players, dealer=dealer, rules=rules)
    candidates.append((other, "ierakstīta nepareiza partija"))
    for wrong, reason in candidates:
        if wrong == deal:
            continue
        try:
            validate_entry(wrong, players=players, dealer=dealer, rules=rules)
        except SheetError:
            continue
        return wrong, reason
    return None


def table_plan(
    rng: random.Random, *, players: Sequence[str], first_dealer: str, deals: int, rules: Rules
) -> TablePlan:
    """A table's round: `deals` random valid deals in the dealer rotation, a penalty pule now
    and then (before a deal: a late player), a mistyped deal now and then."""
    entries: list[PlannedEntry] = []
    for index in range(deals):
        if rules.pules and rng.random() < PENALTY_ODDS:
            entries.append(PlannedEntry(PenaltyPule(rng.choice(players))))
        dealer = dealer_for(players, first_dealer, index)
        deal = random_deal(rng, players=players, dealer=dealer, rules=rules)
        mistake = None
        if rng.random() < MISTYPE_ODDS:
            mistake = _mistyped(rng, deal, players=players, dealer=dealer, rules=rules)
        if mistake is None:
            entries.append(PlannedEntry(deal))
        else:
            entries.append(PlannedEntry(deal, mistyped=mistake[0], reason=mistake[1]))
    return TablePlan(tuple(entries), confirmer=rng.choice(players))


@dataclass(frozen=True, slots=True)
class Progress:
    round_number: int
    rounds: int
    tables_done: int
    tables: int


ProgressCallback = Callable[[Progress], None]


def _client_key(position: int, version: int) -> str:
    return f"{CLIENT_KEY_PREFIX}-{position}-{version}"


def _unique_slug(base: str) -> str:
    base = base[:70].strip("-") or "simulacija"
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    return next(f"{base}-{n}" for n in range(2, len(taken) + 3) if f"{base}-{n}" not in taken)


def simulated_options(
    preset: str = "classic",
    *,
    deals: int | None = None,
    all_pass: str | None = None,
    small_zole: bool | None = None,
) -> dict[str, object]:
    """The tournament options of a simulation: every option of the preset, then each one given
    (None: the preset's)."""
    if preset not in PRESETS:
        raise ServiceError(f'unknown preset "{preset}" (one of {", ".join(PRESETS)})')
    given = {"deals_per_round": deals, "all_pass": all_pass, "small_zole": small_zole}
    options = {
        **preset_options(preset),
        **{name: value for name, value in given.items() if value is not None},
    }
    if deals is not None:  # the deals given are played at every table, whatever its size
        options |= {"deals_at_three": None, "deals_at_four": None}
    return options


def _check_size(players: int, rounds: int, options: dict[str, object]) -> None:
    try:
        table_sizes(players, cast(int, options["table_size"]))  # a preset's: a whole number
    except SheetError as error:
        raise ServiceError(error_text(error).removeprefix("players: ")) from None
    if rounds < 1:
        raise ServiceError(f"a tournament needs at least 1 round, got {rounds}")
    deals = cast(int, options["deals_per_round"])  # a preset's or the caller's whole number
    if not 1 <= deals <= MAX_DEALS_PER_ROUND:
        raise ServiceError(f"deals per round must be 1-{MAX_DEALS_PER_ROUND}, got {deals}")


def _create_tournament(
    rng: random.Random,
    *,
    rounds: int,
    seed: int,
    slug: str | None,
    name: str | None,
    options: dict[str, object],
) -> Tournament:
    city, genitive = rng.choice(CITIES)
    today = timezone.localdate()
    name = name or f"{genitive} kauss {today.year} (simulācija)"
    if slug is None:
        slug = _unique_slug(slugify(f"{name} s{seed}"))
    elif Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(f'a tournament with the slug "{slug}" already exists')
    tournament = Tournament(
        name=name,
        slug=slug,
        venue=f"{genitive} kultūras nams, {city}",
        starts_on=today,
        rounds_planned=rounds,
        **options,
    )
    try:
        tournament.full_clean()
    except ValidationError as error:
        raise ServiceError("; ".join(error.messages)) from None
    tournament.save()
    return tournament


def _register_players(seed: int, tournament: Tournament, count: int) -> None:
    """Clubs (with their cities), then the players through the CSV import, then the entries."""
    rng = random.Random(f"{seed}/clubs")
    clubs = simulated_clubs(rng, max(3, math.ceil(count / PLAYERS_PER_CLUB)))
    for club_name, city in clubs:
        Club.objects.get_or_create(name=club_name, defaults={"city": city})
    taken = set(Player.objects.exclude(licence_number="").values_list("licence_number", flat=True))
    simulated = simulated_players(
        seed, count, clubs=[club for club, _ in clubs], taken_licences=taken
    )
    csv_text = io.StringIO()
    writer = csv.writer(csv_text)
    writer.writerow(["name", "club", "licence"])
    writer.writerows((player.full_name, player.club, player.licence_number) for player in simulated)
    players = tournament_services.players_import(raw=csv_text.getvalue().encode(), by=None).created
    tournament_services.registrations_create(tournament=tournament, players=players)


def _round_tables(round_: Round) -> list[Table]:
    seats = Seat.objects.select_related("registration__player").order_by("position")
    return list(
        round_.tables.prefetch_related(Prefetch("seats", queryset=seats)).order_by("number")
    )


def _table_plans(
    seed: int, round_: Round, tables: Sequence[Table], *, rule_set: RuleSet
) -> list[TablePlan]:
    plans = []
    for table in tables:
        keys = [str(seat.registration_id) for seat in table.seats.all()]
        # Its own generator per table: the same results whatever order tables are played in.
        rng = random.Random(f"{seed}/round {round_.number}/table {table.number}")
        plans.append(
            table_plan(
                rng,
                players=keys,
                first_dealer=keys[table.first_dealer_position - 1],
                deals=rule_set.deals_at(len(keys)),
                rules=rule_set.rules,
            )
        )
    return plans


def _play_table(table: Table, plan: TablePlan, token: TableToken | None) -> None:
    """The table's referee enters every deal through the table's link, corrects the mistakes
    when the players check the sheet, and another player at the table confirms it."""
    writer = Writer(token=token)
    corrections: list[tuple[int, PlannedEntry]] = []
    for position, planned in enumerate(plan.entries, start=1):
        scoring_services.deal_record(
            table=table,
            entry=planned.mistyped or planned.entry,
            position=position,
            client_key=_client_key(position, 1),
            writer=writer,
        )
        if planned.mistyped is not None:
            corrections.append((position, planned))
    for position, planned in corrections:
        scoring_services.deal_correct(
            table=table,
            position=position,
            entry=planned.entry,
            base_version=1,
            client_key=_client_key(position, 2),
            reason=planned.reason,
            writer=writer,
        )
    seats = {str(seat.registration_id): seat.registration for seat in table.seats.all()}
    deals = sum(1 for planned in plan.entries if not isinstance(planned.entry, PenaltyPule))
    scoring_services.table_confirm(
        table=table, writer=writer, confirmer=seats[plan.confirmer], deals_seen=deals
    )


def _play_round_in_bulk(
    round_: Round,
    tables: Sequence[Table],
    plans: Sequence[TablePlan],
    tokens: dict[int, TableToken],
) -> None:
    """The `fast` path: the same rows as `_play_table`, each sheet checked by the engine (as it
    was entered and as corrected), written in bulk."""
    tournament = round_.tournament
    rule_set = round_rule_set(round_)
    rules, scheme = rule_set.rules, rule_set.place_scheme
    results: list[DealResult] = []
    totals: list[dict[str, int]] = []
    tallies: list[dict[str, SeatTally]] = []
    for table, plan in zip(tables, plans, strict=True):
        keys = tuple(str(seat.registration_id) for seat in table.seats.all())
        first_dealer = keys[table.first_dealer_position - 1]
        for entries in (
            [planned.mistyped or planned.entry for planned in plan.entries],
            [planned.entry for planned in plan.entries],
        ):
            sheet = Sheet(keys, tuple(entries), rules, first_dealer=first_dealer, closed=True)
            try:
                scored = score_sheet(sheet)
            except SheetError as error:
                raise ServiceError(f"table {table.number}: {error}") from None
        totals.append(scored.totals)  # the corrected sheet, settled
        tallies.append(seat_tallies(scored))
        token = tokens.get(table.pk)
        for position, planned in enumerate(plan.entries, start=1):
            versions: list[tuple[SheetLine, str]] = (
                [(planned.mistyped, "")] if planned.mistyped is not None else []
            )
            versions.append((planned.entry, planned.reason))
            for version, (entry, reason) in enumerate(versions, start=1):
                results.append(
                    DealResult(
                        table=table,
                        position=position,
                        version=version,
                        client_key=_client_key(position, version),
                        reason=reason,
                        entered_via_token=token,
                        **result_fields(entry),
                    )
                )
    DealResult.objects.bulk_create(results, batch_size=2000)
    newest: dict[int, int] = {}
    for result in results:
        newest[result.table_id] = max(newest.get(result.table_id, 0), result.pk)
    seats_of = {
        table.pk: {str(seat.registration_id): seat.registration for seat in table.seats.all()}
        for table in tables
    }
    table_results = TableResult.objects.bulk_create(
        TableResult(
            table=table,
            confirmed_by_registration=seats_of[table.pk][plan.confirmer],
            last_position=len(plan.entries),
            last_version_id=newest[table.pk],
        )
        for table, plan in zip(tables, plans, strict=True)
    )
    SeatResult.objects.bulk_create(
        (
            seat
            for table_result, table_totals, table_tallies in zip(
                table_results, totals, tallies, strict=True
            )
            for seat in scoring_services.seat_results(
                table_result,
                round_results(round_.number, table_totals, scheme),
                tallies=table_tallies,
            )
        ),
        batch_size=2000,
    )
    AuditRecord.objects.bulk_create(
        AuditRecord(
            tournament=tournament,
            table=table,
            action=AuditRecord.Action.TABLE_CONFIRMED,
            detail={
                "round": round_.number,
                "confirmed_by": seats_of[table.pk][plan.confirmer].player.full_name,
                "totals": table_totals,
                "via": "simulation",
            },
        )
        for table, plan, table_totals in zip(tables, plans, totals, strict=True)
    )
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.IN_PLAY)


@transaction.atomic
def simulate_tournament(
    *,
    players: int,
    rounds: int,
    preset: str = "classic",
    deals: int | None = None,
    seed: int = 1,
    slug: str | None = None,
    name: str | None = None,
    all_pass: str | None = None,
    small_zole: bool | None = None,
    fast: bool = False,
    progress: ProgressCallback | None = None,
) -> Tournament:
    """Create and play a whole tournament with the options of `preset` (`deals`, `all_pass` and
    `small_zole` over them when given); all or nothing. An existing `slug` is refused."""
    options = simulated_options(preset, deals=deals, all_pass=all_pass, small_zole=small_zole)
    _check_size(players, rounds, options)
    rng = random.Random(f"{seed}/tournament")
    tournament = _create_tournament(
        rng, rounds=rounds, seed=seed, slug=slug, name=name, options=options
    )
    _register_players(seed, tournament, players)
    for number in range(1, rounds + 1):
        round_ = tournament_services.round_create(tournament=tournament)
        seating_seed = random.Random(f"{seed}/seating {number}").randrange(1_000_000)
        scoring_services.round_generate_seating(round_=round_, seed=seating_seed, by=None)
        round_ = tournament_services.round_publish(round_=round_, by=None)
        tables = play_simulated_round(
            round_, seed=seed, fast=fast, progress=progress, rounds=rounds
        )
        scoring_services.round_close(round_=round_, writer=Writer())
        if progress is not None:
            progress(Progress(number, rounds, tables, tables))
    return tournament


def play_simulated_round(
    round_: Round,
    *,
    seed: int,
    fast: bool = False,
    progress: ProgressCallback | None = None,
    rounds: int = 1,
) -> int:
    """Every table of a published round played to the end under the round's rules, each table's
    deals drawn from its own generator (`seed`, the round and the table); returns how many
    tables. `rounds` is the tournament's, for the progress reports."""
    tables = _round_tables(round_)
    rule_set = round_rule_set(round_)
    plans = _table_plans(seed, round_, tables, rule_set=rule_set)
    tokens = {
        token.table_id: token
        for token in TableToken.objects.filter(table__round=round_, revoked_at__isnull=True)
        if token.table_id is not None  # the filter's table: always there
    }
    if fast:
        _play_round_in_bulk(round_, tables, plans, tokens)
    else:
        for done, (table, plan) in enumerate(zip(tables, plans, strict=True), start=1):
            _play_table(table, plan, tokens.get(table.pk))
            if progress is not None and done < len(tables):
                progress(Progress(round_.number, rounds, done, len(tables)))
    return len(tables)
