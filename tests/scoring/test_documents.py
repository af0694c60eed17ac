"""Printed documents, read back: table score sheets (blank and filled), the seating list and the
standings protocol, at district and national level.

The PDFs are read with pypdf (their text), rendered to PNG with pypdfium2 and the score sheets'
QR codes decoded with zxing-cpp, so the tests see what a person holding the paper sees."""

from __future__ import annotations

import io
import itertools
import random
import re

import pypdfium2
import pytest
import zxingcpp
from django.urls import reverse
from pypdf import PdfReader
from reportlab.graphics.barcode import qrencoder

from engine import PenaltyPule, dealer_for, score_sheet
from engine.simulate import random_deal
from scoring import selectors as scoring_selectors
from scoring import services
from scoring.documents import round_seating_pdf, round_sheets_pdf, standings_protocol_pdf
from scoring.documents.fonts import BOLD, FONT_FILES, REGULAR
from scoring.documents.qr import codewords
from scoring.models import DealResult
from scoring.services import Writer
from scoring.sheets import table_sheet
from tests.factories import make_organiser, make_tournament, make_user, play_round_with, seat_keys
from tests.scoring.test_standings_selectors import played_tournament, publish_next_round
from tournaments import services as tournament_services
from tournaments.models import Club, Entry, Level, Player, Round, RoundStatus, TableToken
from tournaments.rule_set import round_rule_set

pytestmark = pytest.mark.django_db

# Between them, every lower-case Latvian letter with a mark (ā č ē ģ ī ķ ļ ņ š ū ž), some
# capitals, and a Cyrillic name.
NAMES = [
    "Jānis Bērziņš",
    "Kārlis Pūčiņš",
    "Reģīna Ķikute",
    "Iļja Vīķis",
    "Žanis Grūžs",
    "Дмитрий Иванов",
    "Ērika Ļaudaga",
]
LATVIAN_LETTERS = "āčēģīķļņšūž"
CLUB = "Rīgas Zolītes klubs"
REFEREE = Writer(ip_address="10.0.0.9")
keys = (f"doc-key-{number}" for number in itertools.count())

# The sheets of a round, however many tables: the session and the user, the round, whether it
# has tables, the tables with their confirmations, their seats with players and clubs, their
# links and their deals.
SHEETS_QUERIES = 8


def make_named_tournament(*, level: str = Level.DISTRICT, players: int = 7, **fields):
    # Printed in English, the language these tests read (the documents follow the tournament's
    # language, not the request's: see test_document_language.py).
    fields.setdefault("language", "en")
    tournament = make_tournament(level=level, venue="Rīgas Zolītes nams", **fields)
    club, _ = Club.objects.get_or_create(name=CLUB)
    for index in range(players):
        name = NAMES[index] if index < len(NAMES) else f"Spēlētājs Nr. {index + 1}"
        player = Player.objects.create(
            full_name=name, club=club, licence_number=f"LV-{tournament.pk:03d}{index:03d}"
        )
        Entry.objects.create(tournament=tournament, player=player)
    return tournament


def play_deals(table, count: int, *, seed: int = 1, penalty_before: int | None = None) -> None:
    """`count` random valid deals through the services, a penalty pule where asked."""
    rng = random.Random(seed)
    players = seat_keys(table)
    first_dealer = players[table.first_dealer_position - 1]
    rules = round_rule_set(table.round).rules
    position = 1
    for index in range(count):
        if penalty_before == index + 1:
            services.deal_record(
                table=table,
                entry=PenaltyPule(players[1]),
                position=position,
                client_key=next(keys),
                writer=REFEREE,
            )
            position += 1
        dealer = dealer_for(players, first_dealer, index)
        deal = random_deal(rng, players=players, dealer=dealer, rules=rules)
        services.deal_record(
            table=table, entry=deal, position=position, client_key=next(keys), writer=REFEREE
        )
        position += 1


def confirm(table) -> None:
    confirmer = table.seats.order_by("position").first().entry
    services.table_confirm(table=table, writer=REFEREE, confirmer=confirmer)


@pytest.fixture
def played_round():
    """Seven players at a table of 4 and a table of 3; every deal entered at both (a penalty pule
    at the first), the first confirmed, the second not yet."""
    tournament = make_named_tournament()
    round_ = publish_next_round(tournament)
    four, three = sorted(round_.tables.all(), key=lambda table: -table.seats.count())
    deals = tournament.deals_per_round
    play_deals(four, deals, seed=3, penalty_before=5)
    play_deals(three, deals, seed=4)
    confirm(four)
    return round_


def entry_url(token: str) -> str:
    return f"http://testserver/r/{token}/"


def read_pdf(content: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(content))


def pdf_text(content: bytes) -> list[str]:
    return [page.extract_text() for page in read_pdf(content).pages]


def number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def line_values(page: str, label: str) -> list[int]:
    """The numbers of the sheet's row that starts with `label` ("Total 8 8 12 −28")."""
    match = re.search(rf"^{re.escape(label)} ((?:[−+]?\d+ ?)+)$", page, re.MULTILINE)
    assert match, f"no {label!r} line in:\n{page}"
    return [number(value) for value in match.group(1).split()]


def engine_result(table) -> tuple[list[int], list[int]]:
    """The engine's end-of-round settlement and final totals of the table, in seat order,
    scored afresh from its stored deals."""
    seats = list(table.seats.order_by("position"))
    results = DealResult.objects.filter(table=table).order_by("position", "version")
    rules = round_rule_set(table.round).rules
    scored = score_sheet(table_sheet(table, seats=seats, results=results, rules=rules, closed=True))
    players = seat_keys(table)
    return [scored.settlement[key] for key in players], [scored.totals[key] for key in players]


def render_page(content: bytes, index: int, path, scale: float = 2.0):
    document = pypdfium2.PdfDocument(content)
    try:
        image = document[index].render(scale=scale).to_pil()
    finally:
        document.close()
    image.save(path)
    return image


class TestScoreSheets:
    def test_one_page_per_table_in_table_order(self, played_round):
        content = round_sheets_pdf(round_=played_round, entry_url=entry_url)
        pages = pdf_text(content)

        assert len(pages) == played_round.tables.count() == 2
        for page, table in zip(pages, played_round.tables.order_by("number"), strict=True):
            assert f"Round 1 · Table {table.number}" in page

    def test_players_print_in_seat_order_with_club_and_licence_and_latvian_letters(
        self, played_round
    ):
        pages = pdf_text(round_sheets_pdf(round_=played_round, entry_url=entry_url))

        for page, table in zip(pages, played_round.tables.order_by("number"), strict=True):
            seats = table.seats.order_by("position").select_related("entry__player")
            for seat in seats:
                player = seat.entry.player
                assert f"{seat.position} {player.full_name} {CLUB} {player.licence_number}" in page
        text = "\n".join(pages)
        for letter in LATVIAN_LETTERS:
            assert letter in text, letter
        assert "Дмитрий Иванов" in text

    def test_every_filled_sheets_totals_are_the_engines_and_add_up_to_zero(self, played_round):
        pages = pdf_text(round_sheets_pdf(round_=played_round, entry_url=entry_url))

        for page, table in zip(pages, played_round.tables.order_by("number"), strict=True):
            settlement, totals = engine_result(table)
            assert line_values(page, "Total") == totals
            assert line_values(page, "End-of-round settlement (open personal pules)") == settlement
            assert sum(totals) == 0
            assert "Check: the totals add up to 0 ✓" in page

    def test_a_confirmed_sheet_says_who_confirmed_and_shows_the_penalty_pule(self, played_round):
        four = max(played_round.tables.all(), key=lambda table: table.seats.count())
        page = pdf_text(round_sheets_pdf(round_=played_round, entry_url=entry_url))[four.number - 1]
        first_player = four.seats.order_by("position").first().entry.player.full_name

        assert f"Confirmed by {first_player}" in page
        assert "(before deal 5)" in page
        assert "Place points" in page

    def test_each_row_prints_its_dealer_in_rotation_and_who_sits_out(self, played_round):
        pages = pdf_text(round_sheets_pdf(round_=played_round, entry_url=entry_url, blank=True))

        for page, table in zip(pages, played_round.tables.order_by("number"), strict=True):
            size = table.seats.count()
            dealer_seats = [int(seat) for seat in re.findall(r"^\d+ (\d)\. ", page, re.MULTILINE)]
            first = table.first_dealer_position
            rotation = [(first - 1 + index) % size + 1 for index in range(24)]
            assert dealer_seats == rotation
            assert ("Dealer (sits out)" in page) == (size == 4)

    def test_blank_sheets_have_no_results(self, played_round):
        pages = pdf_text(round_sheets_pdf(round_=played_round, entry_url=entry_url, blank=True))

        for page in pages:
            assert "Blank sheet" in page
            assert "lielais" not in page
            assert "Check: the totals must add up to 0." in page
            assert not re.search(r"^Total [−\d]", page, re.MULTILINE)

    def test_a_table_in_play_is_filled_so_far_and_the_rest_left_blank(self):
        tournament = make_named_tournament()
        round_ = publish_next_round(tournament)
        table = round_.tables.order_by("number").first()
        play_deals(table, 5, seed=9)

        page = pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url))[0]

        assert "In play: 5 of 24 deals entered." in page
        assert not re.search(r"^Total [−\d]", page, re.MULTILINE)
        # Deal 6 has its dealer and nothing else yet.
        assert re.search(r"^6 \d\. \S+ \S+\.?$", page, re.MULTILINE)

    def test_the_qr_code_opens_the_tables_entry_page(self, played_round, tmp_path):
        content = round_sheets_pdf(round_=played_round, entry_url=entry_url)

        for index, table in enumerate(played_round.tables.order_by("number")):
            token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
            image = render_page(content, index, tmp_path / f"sheet-{index + 1}.png")
            decoded = [result.text for result in zxingcpp.read_barcodes(image)]
            assert decoded == [f"http://testserver/r/{token}/"]

    def test_a_revoked_link_is_not_printed(self, played_round, tmp_path):
        table = played_round.tables.order_by("number").first()
        new_token = tournament_services.table_token_issue(table=table, by=None)
        content = round_sheets_pdf(round_=played_round, entry_url=entry_url)

        image = render_page(content, 0, tmp_path / "renewed.png")
        decoded = [result.text for result in zxingcpp.read_barcodes(image)]
        assert decoded == [f"http://testserver/r/{new_token.token}/"]

    def test_national_sheets_carry_the_federation_and_page_x_of_y(self):
        tournament = make_named_tournament(level=Level.NATIONAL)
        round_ = publish_next_round(tournament)

        pages = pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url))

        assert pages[0].startswith("LATVIAN ZOLE FEDERATION")
        assert "National tournament" in pages[0]
        assert pages[1].rstrip().endswith("page 2 of 2")

    def test_a_sheet_that_no_longer_scores_still_prints_with_the_reason(self):
        tournament = make_named_tournament()
        round_ = publish_next_round(tournament)
        table = round_.tables.order_by("number").first()
        play_deals(table, 24, seed=5)
        assert DealResult.objects.filter(table=table, kind="pass").exists()  # seed 5 has passes
        # The round's stored rules changed after play (only a damaged database can do that):
        # the stored passes no longer score. The sheet still prints what was entered, and why.
        play_round_with(round_, all_pass="galdins")
        round_ = Round.objects.select_related("tournament").get(pk=round_.pk)

        page = pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url))[0]

        assert "lielais" in page
        assert "all passed" in page
        assert re.search(r"deal \d+", page)
        assert not re.search(r"^Total [−\d]", page, re.MULTILINE)

    def test_a_galdins_tournament_has_no_pule_tallies(self):
        tournament = make_named_tournament(all_pass="galdins", players=6)
        round_ = publish_next_round(tournament)
        for table in round_.tables.all():
            play_deals(table, 24, seed=table.number)

        pages = pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url))

        for page, table in zip(pages, round_.tables.order_by("number"), strict=True):
            assert "Common" not in page
            assert "galdiņš" in page
            assert line_values(page, "Total") == engine_result(table)[1]


class TestQrCodes:
    @pytest.mark.parametrize("level", ["L", "M", "Q", "H"])
    def test_the_error_correction_is_reportlabs_own(self, level):
        rng = random.Random(level)
        for _ in range(25):
            text = "https://zole.example.lv/r/" + "".join(
                rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
                for _ in range(rng.randint(1, 150))
            )
            code = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level))
            code.addData(text)
            code.version = code.calculate_version()

            assert codewords(code) == qrencoder.QRCode.createData(
                code.version, code.errorCorrectLevel, code.dataList
            )


class TestSheetsView:
    def url(self, round_, **params) -> str:
        url = reverse("scoring:round_sheets_pdf", args=[round_.tournament.slug, round_.number])
        return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")

    def test_organisers_get_filled_sheets_with_absolute_entry_links(
        self, client, played_round, tmp_path
    ):
        client.force_login(make_organiser())

        response = client.get(self.url(played_round))

        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        assert "inline" in response["Content-Disposition"]
        pages = pdf_text(response.content)
        assert len(pages) == 2
        assert "Score sheet: table protocol" in pages[0]
        table = played_round.tables.order_by("number").first()
        token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
        image = render_page(response.content, 0, tmp_path / "view.png")
        assert [r.text for r in zxingcpp.read_barcodes(image)] == [
            f"http://testserver{reverse('scoring:token_sheet', args=[token])}"
        ]

    def test_blank_1_forces_blank_sheets(self, client, played_round):
        client.force_login(make_organiser())

        pages = pdf_text(client.get(self.url(played_round, blank=1)).content)

        assert all("Blank sheet" in page for page in pages)

    def test_the_chief_referee_prints_them_too(self, client, played_round):
        chief = make_user()
        played_round.tournament.chief_referees.add(chief)
        client.force_login(chief)

        assert client.get(self.url(played_round)).status_code == 200

    def test_anonymous_visitors_are_sent_to_log_in(self, client, played_round):
        response = client.get(self.url(played_round))

        assert response.status_code == 302
        assert reverse("login") in response["Location"]

    def test_other_users_are_refused(self, client, played_round):
        client.force_login(make_user())

        assert client.get(self.url(played_round)).status_code == 403

    def test_a_round_without_tables_or_an_unknown_round_is_not_found(self, client):
        tournament = make_named_tournament()
        round_ = tournament_services.round_create(tournament=tournament)
        client.force_login(make_organiser())

        assert client.get(self.url(round_)).status_code == 404
        missing = reverse("scoring:round_sheets_pdf", args=[tournament.slug, 9])
        assert client.get(missing).status_code == 404

    def test_a_draft_rounds_sheets_print_blank_without_a_link_yet(self, client):
        tournament = make_named_tournament()
        round_ = tournament_services.round_create(tournament=tournament)
        tournament_services.round_generate_seating(round_=round_, seed=1, by=None)
        client.force_login(make_organiser())

        pages = pdf_text(client.get(self.url(round_)).content)

        assert len(pages) == 2
        assert all("no entry link yet" in page for page in pages)

    def test_the_number_of_queries_does_not_grow_with_the_round(
        self, client, django_assert_max_num_queries
    ):
        tournament = make_named_tournament(players=16)
        round_ = publish_next_round(tournament)
        for table in round_.tables.order_by("number")[:3]:
            play_deals(table, 3, seed=table.number)
        client.force_login(make_organiser())

        with django_assert_max_num_queries(SHEETS_QUERIES):
            response = client.get(self.url(round_))

        assert len(read_pdf(response.content).pages) == round_.tables.count() == 5


class TestLinks:
    def test_the_organisers_round_page_links_the_sheets_and_the_seating_list(
        self, client, played_round
    ):
        client.force_login(make_organiser())
        slug, number = played_round.tournament.slug, played_round.number

        page = client.get(reverse("tournaments:round", args=[slug, number])).content.decode()

        sheets = reverse("scoring:round_sheets_pdf", args=[slug, number])
        assert f'href="{sheets}"' in page
        assert f'href="{sheets}?blank=1"' in page
        assert reverse("public:round_seating_pdf", args=[slug, number]) in page

    def test_a_draft_rounds_page_offers_the_sheets_but_not_the_seating_list(self, client):
        tournament = make_named_tournament()
        round_ = tournament_services.round_create(tournament=tournament)
        tournament_services.round_generate_seating(round_=round_, seed=1, by=None)
        client.force_login(make_organiser())

        page = client.get(
            reverse("tournaments:round", args=[tournament.slug, round_.number])
        ).content.decode()

        assert reverse("scoring:round_sheets_pdf", args=[tournament.slug, 1]) in page
        assert reverse("public:round_seating_pdf", args=[tournament.slug, 1]) not in page

    def test_the_standings_page_links_the_protocol(self, client, played_round):
        slug = played_round.tournament.slug

        page = client.get(reverse("public:standings", args=[slug])).content.decode()

        assert f'href="{reverse("public:standings_pdf", args=[slug])}"' in page


class TestSeatingList:
    def url(self, round_) -> str:
        return reverse("public:round_seating_pdf", args=[round_.tournament.slug, round_.number])

    def test_public_by_table_and_alphabetically_in_latvian_order(self, client, played_round):
        response = client.get(self.url(played_round))

        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        text = "\n".join(pdf_text(response.content))
        for table in played_round.tables.all():
            assert f"Table {table.number}" in text
        for name in NAMES:
            assert name in text
        # The alphabetical part in Latvian order: Ē among the E's, Ž after Z, and Cyrillic
        # after the Latin letters.
        alphabetical = text[text.index("Players A–Ž") :]
        positions = [alphabetical.index(name) for name in NAMES]
        ordered = [name for _, name in sorted(zip(positions, NAMES, strict=True))]
        assert ordered == [
            "Ērika Ļaudaga",
            "Iļja Vīķis",
            "Jānis Bērziņš",
            "Kārlis Pūčiņš",
            "Reģīna Ķikute",
            "Žanis Grūžs",
            "Дмитрий Иванов",
        ]

    def test_each_player_line_gives_table_and_seat(self, played_round):
        text = "\n".join(pdf_text(round_seating_pdf(round_=played_round)))
        alphabetical = text[text.index("Players A–Ž") :]

        for table in played_round.tables.all():
            for seat in table.seats.select_related("entry__player"):
                line = f"{seat.entry.player.full_name} {table.number} {seat.position}"
                assert line in alphabetical

    def test_a_draft_round_is_not_found(self, client):
        tournament = make_named_tournament()
        round_ = tournament_services.round_create(tournament=tournament)
        tournament_services.round_generate_seating(round_=round_, seed=1, by=None)
        assert round_.status == RoundStatus.DRAFT

        assert client.get(self.url(round_)).status_code == 404
        client.force_login(make_organiser())
        assert client.get(self.url(round_)).status_code == 404

    def test_national_adds_licences_district_does_not(self, played_round):
        licence = Player.objects.get(full_name="Jānis Bērziņš").licence_number
        district = "\n".join(pdf_text(round_seating_pdf(round_=played_round)))
        tournament = played_round.tournament
        tournament.level = Level.NATIONAL
        tournament.save()
        national = "\n".join(pdf_text(round_seating_pdf(round_=played_round)))

        assert licence not in district
        assert licence in national
        assert "LATVIAN ZOLE FEDERATION" in national
        assert "LATVIAN ZOLE FEDERATION" not in district


class TestStandingsProtocol:
    def url(self, tournament, **params) -> str:
        url = reverse("public:standings_pdf", args=[tournament.slug])
        return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")

    def test_public_in_the_engines_order_with_each_rounds_result(self, client):
        tournament = played_tournament(
            players=9, rounds=2, language="en", name="Cēsu kauss", slug="cesu-kauss"
        )

        response = client.get(self.url(tournament))

        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        text = "\n".join(pdf_text(response.content))
        standings = scoring_selectors.tournament_standings(tournament=tournament)
        for row in standings.rows:
            rounds = " ".join(
                f"{'+' if cell.game_points > 0 else ''}{cell.game_points} "
                f"({cell.place_points_text})".replace("-", "−")
                for cell in (row.rounds[1], row.rounds[2])
            )
            game_points = str(row.game_points).replace("-", "−")
            expected = (
                f"{row.rank_label} {row.name} {row.club} {row.place_points_text} "
                f"{game_points} {rounds}"
            )
            assert expected in text
        positions = [text.index(f" {row.name} ") for row in standings.rows]
        assert positions == sorted(positions)
        assert "Final standings after round 2" in text
        assert "Chief referee" in text
        assert "Secretary" in text

    def test_after_a_given_round(self, client):
        tournament = played_tournament(players=9, rounds=2, language="en", slug="after-round")

        text = "\n".join(pdf_text(client.get(self.url(tournament, round=1)).content))

        assert "Standings after round 1 of 2" in text
        first = scoring_selectors.tournament_standings(tournament=tournament, only_round=1)
        for row in first.rows:  # after round 1 the totals are round 1's, and its one column
            cell = row.rounds[1]
            game_points = f"{'+' if cell.game_points > 0 else ''}{cell.game_points}"
            line = next(line for line in text.splitlines() if f" {row.name} " in line)
            assert line.endswith(f" {game_points} ({cell.place_points_text})".replace("-", "−"))
            assert line.count("(") == 1

    def test_an_unpublished_round_is_not_found_and_nonsense_is_ignored(self, client):
        tournament = played_tournament(players=6, rounds=1, language="en", slug="one-round")

        assert client.get(self.url(tournament, round=5)).status_code == 404
        assert client.get(self.url(tournament, round="x")).status_code == 200

    def test_before_the_first_round_everyone_is_listed_at_zero(self, client):
        tournament = make_named_tournament()

        response = client.get(self.url(tournament))

        assert response.status_code == 200
        text = "\n".join(pdf_text(response.content))
        assert "No round has been published yet" in text
        for name in NAMES:
            assert f"{name} {CLUB} 0 0" in text

    def test_latvian_and_cyrillic_names_come_out_as_text(self, played_round):
        text = "\n".join(pdf_text(standings_protocol_pdf(tournament=played_round.tournament)))

        for name in NAMES:
            assert name in text
        assert "Provisional" in text  # round 1 is not closed yet

    def test_national_protocol_adds_licences_referees_control_totals_and_pages(self):
        tournament = played_tournament(
            players=40, rounds=3, level=Level.NATIONAL, slug="national-protocol", language="en"
        )
        content = standings_protocol_pdf(tournament=tournament)
        pages = pdf_text(content)
        text = "\n".join(pages)

        assert len(pages) >= 2
        assert all(page.startswith("LATVIAN ZOLE FEDERATION") for page in pages)
        assert pages[-1].rstrip().endswith(f"page {len(pages)} of {len(pages)}")
        last_round = tournament.rounds.get(number=3)
        for table in last_round.tables.all():
            assert f"Table {table.number} referee" in text
        # One control line per table and round: game points add up to 0, place points to 12.
        controls = re.findall(r"(\d+) (\d+) 0 12 ✓", text)
        assert len(controls) == sum(round_.tables.count() for round_ in tournament.rounds.all())

    def test_district_protocol_is_lighter(self):
        tournament = played_tournament(
            players=12, rounds=2, language="en", slug="district-protocol"
        )
        tournament.level = Level.DISTRICT
        tournament.save()
        entry = tournament.entries.select_related("player").first()
        entry.player.licence_number = "LV-777777"
        entry.player.save()

        text = "\n".join(pdf_text(standings_protocol_pdf(tournament=tournament)))

        assert "LV-777777" not in text
        assert "referee" not in text.replace("Chief referee", "")
        assert "Control totals" not in text
        assert "page 1" in text and "page 1 of" not in text


class TestLookingAtThePages:
    def test_one_page_of_each_document_renders_to_png(self, played_round, tmp_path):
        documents = {
            "sheet": round_sheets_pdf(round_=played_round, entry_url=entry_url),
            "blank-sheet": round_sheets_pdf(round_=played_round, entry_url=entry_url, blank=True),
            "seating": round_seating_pdf(round_=played_round),
            "protocol": standings_protocol_pdf(tournament=played_round.tournament),
        }
        for name, content in documents.items():
            path = tmp_path / f"{name}.png"
            image = render_page(content, 0, path, scale=1.0)
            width, height = image.size
            assert path.stat().st_size > 10_000
            # A4 (595.3 × 841.9 points) at 72 dpi, portrait, or landscape for the protocol.
            short, long = sorted((width, height))
            assert abs(short - 595) <= 1 and abs(long - 842) <= 1, name
            # Something is printed: not an all-white page.
            assert image.convert("L").getextrema()[0] < 50, name

    def test_the_fonts_are_the_projects_own(self):
        for path in FONT_FILES.values():
            assert path.is_file()
            assert "scoring/documents/fonts" in path.as_posix()
        assert {REGULAR, BOLD} == set(FONT_FILES)
