"""Printed documents, read back: table score sheets (blank and filled), the seating list and the
standings protocol, at district and national level.

The PDFs are read with pypdf (their text), rendered to PNG with pypdfium2 and the score sheets'
QR codes decoded with zxing-cpp, so the tests see what a person holding the paper sees."""

from __future__ import annotations

import io
import itertools
import re

import pypdfium2
import pytest
import zxingcpp
from django.db import connection
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from documents import selectors as document_selectors
from documents.fonts import BOLD, FONT_FILES, REGULAR, prepare_reportlab
from documents.pen import MARGIN, PORTRAIT, Pen
from documents.printing import round_seating_pdf, round_sheets_pdf, standings_protocol_pdf
from documents.qr import (
    ERROR_CORRECTION,
    MASK,
    QUIET_ZONE,
    dark_blocks,
    qr_matrix,
    qr_modules,
)
from documents.sheet_data import MIN_ROW, SUMMARY_ROW
from engine import (
    Pass,
    PenaltyPule,
    Play,
    dealer_for,
    score_sheet,
)
from engine.rules import Game
from scoring import selectors as scoring_selectors
from scoring import services
from scoring.models import TWELFTHS, DealResult, SeatResult
from scoring.services import Writer, round_generate_seating
from scoring.sheet.lines import engine_sheet
from tests.factories import (
    make_organiser,
    make_tournament,
    make_user,
    play_round_with,
    seat_keys,
)
from tests.tournament_play import (
    confirm,
    confirm_when_time_was_called,
    play_deals,
    played_tournament,
    publish_next_round,
)
from tournaments import services as tournament_services
from tournaments.models import (
    Club,
    Level,
    Player,
    Registration,
    Round,
    RoundStatus,
    TableToken,
    Tournament,
)
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
        Registration.objects.create(tournament=tournament, player=player)
    return tournament


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
    scored = score_sheet(
        engine_sheet(table, seats=seats, results=results, rules=rules, closed=True)
    )
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
            seats = table.seats.order_by("position").select_related("registration__player")
            for seat in seats:
                player = seat.registration.player
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
        first_player = four.seats.order_by("position").first().registration.player.full_name

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


class TestLongText:
    """Fitting text to a column measures each character once: a sheet's cost grows with its
    text, never with the square of it (500 penalty pules once took 47 s to print)."""

    @pytest.fixture
    def measured(self, monkeypatch) -> list[int]:
        """The characters every width measurement of the document fonts is asked about."""
        prepare_reportlab()
        characters: list[int] = []
        font_class = type(pdfmetrics.getFont(REGULAR))
        measure = font_class.stringWidth

        def counting(font, text, size, *args, **kwargs):
            characters.append(len(text))
            return measure(font, text, size, *args, **kwargs)

        monkeypatch.setattr(font_class, "stringWidth", counting)
        return characters

    def test_fitting_a_long_line_measures_each_character_a_bounded_number_of_times(self, measured):
        pen = Pen(Canvas(io.BytesIO()), PORTRAIT)
        text = "Jānis Bērziņš (before deal 5); " * 400

        fitted, _size = pen.fit(text, 9, 200)

        assert fitted.endswith("…") and len(fitted) < 100
        assert sum(measured) <= 3 * len(text)
        assert len(pen.widths) <= 2  # what was drawn or measured whole, not every prefix

    def test_wrapping_a_long_text_into_few_lines_is_linear(self, measured):
        pen = Pen(Canvas(io.BytesIO()), PORTRAIT)
        text = "Penalty pules: " + "; ".join(["Jānis B. (before deal 5)"] * 500)

        pen.lines(text, 0, 500, 150, size=7, leading=8.5, max_lines=3)

        assert sum(measured) <= 6 * len(text)
        assert len(pen.widths) <= 10

    def test_a_text_wrapped_again_in_the_same_document_is_not_measured_again(self, measured):
        """The pules legend and the rules come back on every sheet of a round."""
        pen = Pen(Canvas(io.BytesIO()), PORTRAIT)
        text = "Pules column: C+ common pule written, C− common pule collected. " * 3
        first = pen.wrap(text, 150, size=6.5, max_lines=6)
        measured.clear()

        again = pen.wrap(text, 150, size=6.5, max_lines=6)

        assert again == first and len(first) > 1
        assert measured == []
        assert pen.wrap(text, 120, size=6.5, max_lines=6) != first  # another width: wrapped anew

    @pytest.mark.skipif(
        connection.vendor != "sqlite",
        reason="names over 120 characters are stored only by SQLite (which ignores the length); "
        "PostgreSQL refuses them, and the Pen tests above check the fitting on every database",
    )
    def test_a_sheet_with_very_long_names_costs_measurements_in_proportion(self, measured):
        def measured_for(name_length: int) -> int:
            tournament = make_named_tournament(players=3)
            for index, entry in enumerate(tournament.registrations.select_related("player")):
                # Longer than the form allows: as an archive or the admin could store it.
                entry.player.full_name = f"{'Ķ' * name_length}{index} Bērziņš{'ā' * name_length}"
                entry.player.save()
            round_ = publish_next_round(tournament)
            table = round_.tables.get()
            for position, player in enumerate(seat_keys(table) * 3, start=1):
                services.deal_record(
                    table=table,
                    entry=PenaltyPule(player),
                    position=position,
                    client_key=next(keys),
                    writer=REFEREE,
                )
            measured.clear()
            round_sheets_pdf(round_=round_, entry_url=entry_url)
            return sum(measured)

        short, long = measured_for(1500), measured_for(3000)

        assert long < 2.5 * short  # linear: twice the text, about twice the measuring


class TestFontChunks:
    """The documents' font keeps each string's subset chunks per document (fonts.DocumentTTFont):
    what is printed must read back as if every string were split afresh."""

    def document(self) -> tuple[io.BytesIO, Pen]:
        prepare_reportlab()
        buffer = io.BytesIO()
        return buffer, Pen(Canvas(buffer, pagesize=PORTRAIT), PORTRAIT)

    def test_two_documents_written_in_turns_each_read_back_their_own_text(self):
        """The same strings get different codes in two documents (whose first letters differ):
        neither may print with the other's."""
        first, second = self.document(), self.document()
        lines = {
            0: ["Žanis Grūžs", "Jānis Bērziņš", "+12", "−7", "Дмитрий Иванов"],
            1: ["Дмитрий Иванов", "−7", "Ķikute", "Jānis Bērziņš", "+12"],
        }
        for row in range(5):
            for index, (_buffer, pen) in enumerate((first, second)):
                pen.text(MARGIN, 700 - 20 * row, lines[index][row], size=10)
                pen.text(MARGIN + 200, 700 - 20 * row, lines[1 - index][row], bold=True)
        for _buffer, pen in (first, second):
            pen.end_page()
            pen.canvas.save()

        for index, (buffer, _pen) in enumerate((first, second)):
            page = pdf_text(buffer.getvalue())[0].splitlines()
            assert page == [f"{a} {b}" for a, b in zip(lines[index], lines[1 - index], strict=True)]

    def test_a_saved_document_is_forgotten(self):
        regular = pdfmetrics.getFont(REGULAR)
        buffer, pen = self.document()
        pen.text(MARGIN, 700, "Reģīna Ķikute")
        pen.end_page()
        assert len(regular.chunks) >= 1
        kept = len(regular.chunks)

        pen.canvas.save()

        assert len(regular.chunks) == kept - 1
        assert pdf_text(buffer.getvalue())[0].strip() == "Reģīna Ķikute"


class TestQrCodes:
    def test_what_is_printed_is_the_encoders_code_for_the_link_module_for_module(self, tmp_path):
        """Read back without a decoder: the rendered page's modules are the encoder's matrix
        for the link (the same link always prints the same code)."""
        url = "http://testserver/r/" + "AbC-_9" * 7 + "/"
        buffer = io.BytesIO()
        prepare_reportlab()
        pen = Pen(Canvas(buffer, pagesize=PORTRAIT), PORTRAIT)
        pen.qr(url, x=100, y=400, size=300)
        pen.end_page()
        pen.canvas.save()

        matrix = qr_matrix(url)
        count = len(matrix) + 2 * QUIET_ZONE
        image = render_page(buffer.getvalue(), 0, tmp_path / "qr.png", scale=2.0).convert("L")
        unit = 300 * 2.0 / count
        left, top = 100 * 2.0, (PORTRAIT[1] - 400 - 300) * 2.0
        printed = tuple(
            tuple(
                image.getpixel(
                    (
                        int(left + (QUIET_ZONE + column + 0.5) * unit),
                        int(top + (QUIET_ZONE + row + 0.5) * unit),
                    )
                )
                < 128
                for column in range(len(matrix))
            )
            for row in range(len(matrix))
        )
        assert printed == matrix
        assert qr_matrix(url) == matrix  # deterministic

    def test_every_code_is_printed_with_the_fixed_mask_and_reads_back(self, tmp_path):
        """The encoder is given the mask pattern rather than searching the eight: links of
        every length still decode from the printed page, each with that mask and level M."""
        buffer = io.BytesIO()
        prepare_reportlab()
        pen = Pen(Canvas(buffer, pagesize=PORTRAIT), PORTRAIT)
        urls = [f"https://zole.example.lv/r/{'k9_Z-' * count}/" for count in (1, 6, 9, 14)]
        for index, url in enumerate(urls):
            pen.qr(url, x=40 + (index % 2) * 280, y=460 - (index // 2) * 300, size=240)
        pen.end_page()
        pen.canvas.save()

        image = render_page(buffer.getvalue(), 0, tmp_path / "masks.png", scale=2.0)
        decoded = {result.text: result for result in zxingcpp.read_barcodes(image)}
        assert sorted(decoded) == sorted(urls)
        for result in decoded.values():
            assert result.extra["DataMask"] == MASK
            assert result.ec_level == ERROR_CORRECTION

    def test_the_drawn_rectangles_cover_the_dark_modules_exactly_once(self):
        """Runs are stretched over the rows below that repeat them: still every dark module in
        one rectangle, no light one in any."""
        url = "https://zole.example.lv/r/" + "x7-Q" * 8 + "/"
        matrix = qr_matrix(url)
        covered = [[0] * len(matrix) for _ in matrix]
        for column, row, width, height in dark_blocks(qr_modules(url)):
            for y in range(row, row + height):
                for x in range(column, column + width):
                    covered[y][x] += 1
        assert [[count == 1 for count in row] for row in covered] == [list(r) for r in matrix]
        assert max(max(row) for row in covered) == 1
        assert len(dark_blocks(qr_modules(url))) < sum(map(sum, matrix))  # fewer than modules


class TestSheetsView:
    def url(self, round_, **params) -> str:
        url = reverse("documents:round_sheets_pdf", args=[round_.tournament.slug, round_.number])
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
            f"http://testserver{reverse('entry:token_sheet', args=[token])}"
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
        missing = reverse("documents:round_sheets_pdf", args=[tournament.slug, 9])
        assert client.get(missing).status_code == 404

    def test_a_draft_rounds_sheets_print_blank_without_a_link_yet(self, client):
        tournament = make_named_tournament()
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
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

    def test_the_sheets_read_four_queries_whatever_the_rounds_size(self, django_assert_num_queries):
        """Seats, links and deals are read as rows in one query each (three when blank)."""
        for players, played in ((7, 1), (16, 4)):
            tournament = make_named_tournament(players=players)
            round_ = publish_next_round(tournament)
            for table in round_.tables.order_by("number")[:played]:
                play_deals(table, 3, seed=table.number, penalty_before=2)
            round_ = Round.objects.select_related("tournament").get(pk=round_.pk)

            with django_assert_num_queries(4):
                sheets = document_selectors.round_score_sheets(
                    round_=round_, entry_url=lambda token: f"https://z.example/{token}/"
                )
            with django_assert_num_queries(3):
                document_selectors.round_score_sheets(
                    round_=round_, entry_url=lambda token: token, blank=True
                )

            assert len(sheets.sheets) == round_.tables.count()
            assert sum(sheet.filled for sheet in sheets.sheets) == played
            assert all(sheet.entry_url for sheet in sheets.sheets)


class TestLinks:
    def test_the_organisers_round_page_links_the_sheets_and_the_seating_list(
        self, client, played_round
    ):
        client.force_login(make_organiser())
        slug, number = played_round.tournament.slug, played_round.number

        page = client.get(reverse("organise:round", args=[slug, number])).content.decode()

        sheets = reverse("documents:round_sheets_pdf", args=[slug, number])
        assert f'href="{sheets}"' in page
        assert f'href="{sheets}?blank=1"' in page
        assert reverse("documents:round_seating_pdf", args=[slug, number]) in page

    def test_a_draft_rounds_page_offers_the_sheets_but_not_the_seating_list(self, client):
        tournament = make_named_tournament()
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
        client.force_login(make_organiser())

        page = client.get(
            reverse("organise:round", args=[tournament.slug, round_.number])
        ).content.decode()

        assert reverse("documents:round_sheets_pdf", args=[tournament.slug, 1]) in page
        assert reverse("documents:round_seating_pdf", args=[tournament.slug, 1]) not in page

    def test_the_standings_page_links_the_protocol(self, client, played_round):
        slug = played_round.tournament.slug

        page = client.get(reverse("public:standings", args=[slug])).content.decode()

        assert f'href="{reverse("documents:standings_pdf", args=[slug])}"' in page


class TestSeatingList:
    def url(self, round_) -> str:
        return reverse("documents:round_seating_pdf", args=[round_.tournament.slug, round_.number])

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
            for seat in table.seats.select_related("registration__player"):
                line = f"{seat.registration.player.full_name} {table.number} {seat.position}"
                assert line in alphabetical

    def test_the_organisers_print_carries_the_next_rounds_check_in_code(self, client, played_round):
        """The seating on the wall tells the hall how to check in for the round being prepared;
        the public copy of the same list never carries the code."""
        tournament = played_round.tournament
        next_round = tournament_services.round_create(tournament=tournament)
        public = "\n".join(pdf_text(client.get(self.url(played_round)).content))
        organiser = make_organiser()
        client.force_login(organiser)
        printed = pdf_text(client.get(self.url(played_round)).content)

        assert next_round.check_in_code in printed[0]
        assert "Check-in for round 2" in printed[0]
        assert f"/t/{tournament.slug}/check-in/" in printed[0]
        assert next_round.check_in_code not in public and "Check-in for round" not in public

    def test_a_draft_round_is_not_found(self, client):
        tournament = make_named_tournament()
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
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
        url = reverse("documents:standings_pdf", args=[tournament.slug])
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

    def test_the_title_names_the_last_round_with_a_confirmed_table(self, client):
        """Round 3 is published and in play, no table of it confirmed: the standings are
        those after round 2, and the title says so."""
        tournament = played_tournament(
            players=9, rounds=2, language="en", slug="in-play", rounds_planned=7
        )
        publish_next_round(tournament, seed=3)

        text = "\n".join(pdf_text(client.get(self.url(tournament)).content))

        assert "Standings after round 2 of 7" in text
        assert "after round 3" not in text

    def test_a_published_round_without_a_confirmed_table_is_before_round_1(self, client):
        tournament = make_named_tournament()
        publish_next_round(tournament, seed=3)

        text = "\n".join(pdf_text(client.get(self.url(tournament)).content))

        assert f"Standings before round 1 of {tournament.rounds_planned}" in text
        assert "after round" not in text

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
        entry = tournament.registrations.select_related("player").first()
        entry.player.licence_number = "LV-777777"
        entry.player.save()

        text = "\n".join(pdf_text(standings_protocol_pdf(tournament=tournament)))

        assert "LV-777777" not in text
        assert "referee" not in text.replace("Chief referee", "")
        assert "Control totals" not in text
        assert "page 1" in text and "page 1 of" not in text


@pytest.mark.parametrize(
    ("language", "rounds"), [("lv", 1), ("lv", 2), ("ru", 1), ("ru", 3), ("en", 1)]
)
def test_the_protocols_round_columns_carry_their_caption_whole_across_the_page(language, rounds):
    """With few rounds the caption over them ("Kārtas: spēles punkti (vietas punkti)") is
    printed whole, and the columns fill the page's width (nothing left empty on the right)."""
    tournament = played_tournament(
        players=8, rounds=rounds, language=language, slug=f"uzraksts-{language}-{rounds}"
    )
    content = standings_protocol_pdf(tournament=tournament)

    with translation.override(language):
        caption = translation.gettext("Rounds: game points (place points)")
    assert caption in pdf_text(content)[0].replace("\n", " ")
    page = pypdfium2.PdfDocument(content)[0]
    text = page.get_textpage()
    words = text.get_text_range()
    start = words.index(caption)
    caption_right = max(text.get_charbox(start + index)[2] for index in range(len(caption)))
    right_margin = page.get_width() - MARGIN
    assert caption_right <= right_margin
    # The rightmost printed character of the table (a round's cell) is near the right margin.
    table_right = max(text.get_charbox(index)[2] for index in range(text.count_chars()))
    assert table_right >= right_margin - 60, (table_right, right_margin)


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
            assert "documents/fonts" in path.as_posix()
        assert {REGULAR, BOLD} == set(FONT_FILES)


# -- The federation's formats: any number of deals, tables of 4, timed rounds, a round's rules ----


FEDERATION_OPTIONS = {
    # Everything a round's rules can print at once (the engine's own pass pules and place-point
    # shares are the engine branch's; these options are the ones carried and printed).
    "personal_pule_payment": "N",
    "four_table_pass_pules": 2,
    "small_zole": True,
    "small_zole_loss": 6,
    "galdins_scoring": "rondo",
}


def federation_round(deals: int, *, level: str = Level.NATIONAL, language: str = "en", **fields):
    """11 players at two tables of 4 then one of 3 (tables of 4 first), `deals` a round."""
    tournament = make_named_tournament(
        level=level,
        players=11,
        language=language,
        deals_per_round=deals,
        table_size=4,
        **{**FEDERATION_OPTIONS, **fields},
    )
    round_ = publish_next_round(tournament)
    assert [table.seats.count() for table in round_.tables.order_by("number")] == [4, 4, 3]
    return round_


def row_numbers(page: str) -> list[int]:
    """The deal numbers that start the sheet's rows, in order."""
    return [int(number) for number in re.findall(r"^(\d+) \d\. ", page, re.MULTILINE)]


def text_baselines(content: bytes, index: int) -> list[tuple[float, float, str]]:
    """(x, y, text) of every string drawn on a page: the pen sets each one's own matrix."""
    placed: list[tuple[float, float, str]] = []

    def visit(text, _cm, tm, _font, _size) -> None:
        if text.strip():
            placed.append((tm[4], tm[5], text.strip()))

    read_pdf(content).pages[index].extract_text(visitor_text=visit)
    return placed


class TestFederationSheets:
    @pytest.mark.parametrize("language", ["en", "lv", "ru"])
    @pytest.mark.parametrize("deals", [24, 28])
    def test_24_or_28_deals_fit_one_page_per_table_including_tables_of_4(self, deals, language):
        round_ = federation_round(deals, language=language)
        full, short, three = round_.tables.order_by("number")
        for table in (full, three):
            play_deals(table, deals, seed=table.number)
        confirm(full)
        # The longest heading a sheet has: its status, the time called and the round's rules.
        play_deals(short, deals - 3, seed=2)
        confirm_when_time_was_called(short)

        for blank in (False, True):
            pages = pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url, blank=blank))
            assert len(pages) == 3
            for page in pages:
                assert row_numbers(page) == list(range(1, deals + 1))

    @pytest.mark.parametrize("deals", [1, 7, 28, 29, 36, 45, 60])
    @pytest.mark.parametrize("level", [Level.DISTRICT, Level.NATIONAL])
    def test_any_count_prints_every_row_once_at_a_height_to_write_in(self, deals, level):
        round_ = federation_round(deals, level=level)
        tables = list(round_.tables.order_by("number"))
        play_deals(tables[0], deals, seed=2)
        confirm(tables[0])
        content = round_sheets_pdf(round_=round_, entry_url=entry_url)
        pages = pdf_text(content)

        # Each table's rows over its pages, in order, each once; its totals on its last page.
        pages_of = {
            table.number: [
                index
                for index, page in enumerate(pages)
                if f"Round 1 · Table {table.number}" in page
            ]
            for table in tables
        }
        assert sorted(itertools.chain(*pages_of.values())) == list(range(len(pages)))
        for indexes in pages_of.values():
            numbers = [number for index in indexes for number in row_numbers(pages[index])]
            assert numbers == list(range(1, deals + 1))
            # One page up to 28 deals and more at some point after, as the table's size and the
            # heading leave room; 60 always go on over a second page.
            assert len(indexes) == 1 if deals <= 28 else len(indexes) == 2 if deals == 60 else True
            for index in indexes[:-1]:
                assert "Continued on the next page" in pages[index]
                assert not re.search(r"^Total ", pages[index], re.MULTILINE)
            for index in indexes[1:]:
                assert "Score sheet, continued" in pages[index]
        assert line_values(pages[pages_of[1][-1]], "Total") == engine_result(tables[0])[1]
        footer = f"page {len(pages)}" + (f" of {len(pages)}" if level == Level.NATIONAL else "")
        assert pages[-1].rstrip().endswith(footer)
        # Nothing overlaps: the rows stay at least the smallest height apart, above the totals
        # and the footer.
        for index in range(len(pages)):
            placed = text_baselines(content, index)
            header = max(y for _x, y, text in placed if text.startswith("No."))
            rows = sorted(
                (y for x, y, text in placed if text.isdigit() and x < MARGIN + 20 and y < header),
                reverse=True,
            )
            assert len(rows) == len(row_numbers(pages[index]))
            gaps = [above - below for above, below in itertools.pairwise(rows)]
            assert all(gap >= MIN_ROW - 0.01 for gap in gaps), (index, gaps)
            assert rows[-1] > MARGIN
            for _x, total, text in placed:
                if text == "Total":
                    assert rows[-1] > total + SUMMARY_ROW

    def test_a_table_confirmed_when_time_was_called_prints_what_was_played(self, tmp_path):
        round_ = federation_round(24, level=Level.DISTRICT)
        table = round_.tables.order_by("number").first()
        play_deals(table, 17, seed=4)
        confirm_when_time_was_called(table)

        content = round_sheets_pdf(round_=round_, entry_url=entry_url)
        page = pdf_text(content)[0]

        assert "Time called after deal 17." in page
        settlement, totals = engine_result(table)
        assert line_values(page, "Total") == totals
        assert line_values(page, "End-of-round settlement (open personal pules)") == settlement
        assert "Check: the totals add up to 0 ✓" in page
        assert "Place points" in page
        # The deals never reached stay visibly empty: each says so, and none has a result.
        unplayed = re.findall(r"^(\d+) \d\. .+ not played$", page, re.MULTILINE)
        assert [int(number) for number in unplayed] == list(range(18, 25))
        assert row_numbers(page) == list(range(1, 25))
        image = render_page(content, 0, tmp_path / "time-called.png")
        assert image.size[1] > 1000

    def test_a_table_still_short_without_time_called_is_in_play(self):
        round_ = federation_round(24, level=Level.DISTRICT)
        table = round_.tables.order_by("number").first()
        play_deals(table, 17, seed=4)

        page = pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url))[0]

        assert "In play: 17 of 24 deals entered." in page
        assert "Time called" not in page
        assert "not played" not in page
        assert not re.search(r"^Total [−\d]", page, re.MULTILINE)

    def test_the_rounds_rules_are_printed_not_the_tournaments_later_options(self):
        round_ = federation_round(24, level=Level.DISTRICT)
        # Changed for the next round after this one was published: this one keeps its rules.
        Tournament.objects.filter(pk=round_.tournament_id).update(
            personal_pule_payment="N-1", small_zole=False, deals_per_round=18
        )
        round_ = Round.objects.select_related("tournament").get(pk=round_.pk)

        four, _other, three = pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url))

        for page in (four, three):
            rules = " ".join(page[page.index("This round's rules:") :].split())
            assert "When everyone passes: a common pule is written" in rules
            assert "Mazā zole is played · A lost mazā zole costs: 6 to each other player" in rules
            assert "A collected personal pule costs its owner: N points" in rules
            assert "N − 1 points" not in rules
            assert "24 deals" in page
            assert row_numbers(page) == list(range(1, 25))
        four_rules = " ".join(four.split())
        assert "Everyone passing at a table of 4 writes: two common pules" in four_rules
        assert "Place points at a table of 4: 6,4,2,0" in four_rules
        assert "table of 4 writes" not in " ".join(three.split())
        assert "Place points at a table of 3: 6,4,2" in " ".join(three.split())

    def test_galdins_rules_say_how_galdins_is_scored_and_that_no_pules_are_written(self):
        round_ = federation_round(24, level=Level.DISTRICT, all_pass="galdins")

        page = " ".join(pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url))[0].split())

        assert "When everyone passes: galdiņš is played" in page
        assert "Galdiņš is scored: rondo: the most card points loses" in page
        assert "personal pule costs" not in page
        assert "Everyone passing plays galdiņš in this round: no pules are written." in page

    def test_the_rules_are_printed_in_the_tournaments_language(self):
        round_ = federation_round(24, level=Level.DISTRICT, language="lv")

        page = " ".join(pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url))[0].split())

        assert "Ja visi pasē: ieraksta kopējo puli" in page
        assert "Noņemta personīgā pule tās īpašniekam maksā: N punktus" in page
        assert "This round's rules" not in page

    def test_lines_alike_on_several_sheets_are_drawn_once_and_each_page_keeps_its_own_table(
        self, tmp_path
    ):
        """The grids, shading and tally boxes two sheets share are one form XObject placed on
        both pages; the names, the QR code and the text of each page are still its table's."""
        round_ = federation_round(28)
        content = round_sheets_pdf(round_=round_, entry_url=entry_url)
        pages = read_pdf(content).pages

        def forms(page) -> set[int]:
            return {ref.idnum for ref in page["/Resources"]["/XObject"].values()}

        first, second, third = (forms(page) for page in pages)
        assert len(first & second) >= 3  # the players' grid, the summary, the tally boxes
        assert not (first & third)  # a table of 3 has grids of its own
        for index, table in enumerate(round_.tables.order_by("number")):
            text = pages[index].extract_text()
            assert f"Round 1 · Table {table.number}" in text
            for seat in table.seats.select_related("registration__player"):
                assert f"{seat.position} {seat.registration.player.full_name}" in text
            token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
            image = render_page(content, index, tmp_path / f"sheet-{index + 1}.png")
            decoded = [result.text for result in zxingcpp.read_barcodes(image)]
            assert decoded == [f"http://testserver/r/{token}/"]


class TestFederationSeatingList:
    def test_tables_of_4_first_then_of_3_each_with_its_players(self):
        round_ = federation_round(28)

        text = "\n".join(pdf_text(round_seating_pdf(round_=round_)))

        by_table = text[: text.index("Players A–Ž")]
        alphabetical = text[text.index("Players A–Ž") :]
        positions = [by_table.index(f"Table {number}") for number in (1, 2, 3)]
        assert positions == sorted(positions)
        for table in round_.tables.all():
            seats = list(table.seats.select_related("registration__player").order_by("position"))
            assert len(seats) == (3 if table.number == 3 else 4)
            for seat in seats:
                player = seat.registration.player
                assert f"{seat.position} {player.full_name}" in by_table
                assert f"{player.full_name} {player.licence_number} {table.number} " in (
                    alphabetical.replace("\n", " ")
                )


class TestControlTotals:
    def controls(self, tournament) -> list[tuple[str, str]]:
        """(round and table, the rest of its control line) as printed."""
        text = "\n".join(pdf_text(standings_protocol_pdf(tournament=tournament)))
        section = text[text.index("Control totals by table") :]
        return re.findall(r"(\d+ \d+) (−?\d+ [\d/]+ [✓✗])", section)

    def test_every_table_is_checked_player_by_player_against_the_engine(self):
        tournament = played_tournament(
            players=10, rounds=1, level=Level.NATIONAL, slug="controls", language="en"
        )
        table = tournament.rounds.get().tables.order_by("number").first()
        first, second = SeatResult.objects.filter(table_result__table=table).order_by(
            "-place_points_twelfths"
        )[:2]
        assert first.place_points_twelfths != second.place_points_twelfths
        # Swapped: the table's sum is still the scheme's, but two players hold the wrong points.
        SeatResult.objects.filter(pk=first.pk).update(
            place_points_twelfths=second.place_points_twelfths
        )
        SeatResult.objects.filter(pk=second.pk).update(
            place_points_twelfths=first.place_points_twelfths
        )

        controls = dict(self.controls(tournament))

        assert controls.pop(f"1 {table.number}") == "0 12 ✗"
        assert controls and all(line.endswith("✓") for line in controls.values())

    def test_a_shared_place_value_with_the_engines_own_scheme(self):
        tournament = played_tournament(
            players=8,
            rounds=1,
            level=Level.NATIONAL,
            slug="shared-engine",
            language="en",
            place_points_four="6,4,2,0; 1-4=2",
        )
        table = tournament.rounds.get().tables.order_by("number").first()
        SeatResult.objects.filter(table_result__table=table).update(
            game_points=0, place_points_twelfths=2 * TWELFTHS, place=1
        )

        controls = dict(self.controls(tournament))

        assert controls[f"1 {table.number}"] == "0 8 ✓"


class TestTwoCommonPulesAtATableOfFour:
    """Under four_table_pass_pules=2, everyone passing with no pule open writes two common pules
    at once: the sheet counts both, draws both, and says so in that deal's pules column."""

    def played_sheet(self) -> str:
        tournament = make_named_tournament(
            players=4, table_size=4, deals_per_round=8, four_table_pass_pules=2
        )
        round_ = publish_next_round(tournament)
        table = round_.tables.get()
        players = seat_keys(table)
        first_dealer = players[table.first_dealer_position - 1]
        # pass: 2 written; won Lielais: 1 collected; pass, pass: 1 written each (one open);
        # two won Lielais: 2 collected, 1 open; then two zoles, which leave the pules alone.
        games = ["pass", "lielais", "pass", "pass", "lielais", "lielais", "zole", "zole"]
        for index, game in enumerate(games):
            dealer = dealer_for(players, first_dealer, index)
            declarer = players[(players.index(dealer) + 1) % 4]
            entry = Pass() if game == "pass" else Play(Game(game), declarer, tricks=5, points=75)
            services.deal_record(
                table=table,
                entry=entry,
                position=index + 1,
                client_key=next(keys),
                writer=REFEREE,
            )
        return pdf_text(round_sheets_pdf(round_=round_, entry_url=entry_url))[0]

    def test_the_tally_counts_both_pules_written_at_once(self):
        page = self.played_sheet()

        assert "Common written 4 · crossed out 3 · open 1" in page

    def test_the_deal_that_wrote_two_shows_two_marks(self):
        page = self.played_sheet()

        first_deal = re.search(r"^1 \d\. .*$", page, re.MULTILINE)
        third_deal = re.search(r"^3 \d\. .*$", page, re.MULTILINE)
        assert first_deal and " all passed C+C+ " in first_deal.group(), first_deal
        assert third_deal and " all passed C+ " in third_deal.group(), third_deal
