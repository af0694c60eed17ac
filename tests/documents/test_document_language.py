"""Printed documents speak the tournament's language (Tournament.language): a Russian
tournament prints Russian score sheets, seating lists and standings protocols, whatever the
language of whoever downloads them, and its dates the Russian way.

The PDFs are read back with pypdf, as in test_documents.py. The words expected are the
catalogue's (`gettext` under the tournament's language); where the translators have not filled
a heading in yet, the `russian` fixture lends the catalogue a stand-in, so the tests always see
the language change and never pass by printing English in both."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext, trans_real

from documents import score_sheet_rows as document_rows
from documents import sheet_data as document_sheets
from documents.printing import round_seating_pdf, round_sheets_pdf, standings_protocol_pdf
from tests.documents.test_documents import (
    entry_url,
    make_named_tournament,
    pdf_text,
    read_pdf,
)
from tests.factories import make_organiser
from tests.tournament_play import confirm, play_deals, publish_next_round

pytestmark = pytest.mark.django_db

SHEET_TITLE = "Score sheet: table protocol"
SHEET_HEADING = "Round %(round)d · Table %(table)d"
SEATING_TITLE = "Seating, round %(number)d"
PROTOCOL_TITLE = "Standings protocol"
COMMON_MARK = ("the score sheet's mark of a common pule", "C")

# Stand-ins for headings the Russian catalogue does not have yet.
RUSSIAN = {
    SHEET_TITLE: "Протокол стола",
    SHEET_HEADING: "Тур %(round)d · Стол %(table)d",
    SEATING_TITLE: "Рассадка, тур %(number)d",
    PROTOCOL_TITLE: "Протокол турнирной таблицы",
    "\x04".join(COMMON_MARK): "О",
}


def _clear_document_caches() -> None:
    # The game words and pule letters are looked up once per language and kept.
    document_rows._words.cache_clear()
    document_sheets._pule_letters.cache_clear()


@pytest.fixture
def russian():
    """The Russian catalogue, with a stand-in for each heading above it lacks (taken out
    again afterwards: the catalogue is shared by the whole process)."""
    catalogue = trans_real.translation("ru")._catalog
    added = [msgid for msgid in RUSSIAN if msgid not in catalogue]
    for msgid in added:
        catalogue[msgid] = RUSSIAN[msgid]
    _clear_document_caches()
    yield
    for msgid in added:
        catalogue._catalogs[0].pop(msgid, None)  # __setitem__ wrote to the first catalogue
    _clear_document_caches()


def in_language(language: str, msgid: str, **values: int) -> str:
    with translation.override(language):
        text = gettext(msgid)
    return text % values if values else text


def played(language: str):
    """A round of 7 players: every deal at both tables (seed 5 passes: common pules), the
    first table confirmed."""
    tournament = make_named_tournament(language=language)
    round_ = publish_next_round(tournament)
    for table in round_.tables.all():
        play_deals(table, tournament.deals_per_round, seed=5)
    confirm(round_.tables.order_by("number").first())
    return round_


def document_lang(content: bytes) -> str:
    return str(read_pdf(content).trailer["/Root"]["/Lang"])


class TestTheTournamentsLanguage:
    def test_a_russian_tournament_prints_russian_score_sheets(self, russian):
        round_ = played("ru")
        title = in_language("ru", SHEET_TITLE)
        assert title != SHEET_TITLE  # the catalogue's Russian, or the stand-in

        content = round_sheets_pdf(round_=round_, entry_url=entry_url)
        pages = pdf_text(content)

        for page, table in zip(pages, round_.tables.order_by("number"), strict=True):
            assert title in page
            assert in_language("ru", SHEET_HEADING, round=1, table=table.number) in page
            assert SHEET_TITLE not in page
            assert f"Round 1 · Table {table.number}" not in page
        with translation.override("ru"):
            starts_on = date_format(round_.tournament.starts_on, "DATE_FORMAT")
            common = pgettext(*COMMON_MARK)
        assert "декабря" in starts_on  # Django's own Russian dates
        assert starts_on in pages[0]
        # The pules column writes the Russian letter (everyone passed at least once).
        text = "\n".join(pages)
        assert f"{common}+" in text
        assert "C+" not in text
        assert document_lang(content) == "ru"

    def test_an_english_tournament_prints_english_score_sheets(self, russian):
        round_ = played("en")

        content = round_sheets_pdf(round_=round_, entry_url=entry_url)
        pages = pdf_text(content)

        for page, table in zip(pages, round_.tables.order_by("number"), strict=True):
            assert SHEET_TITLE in page
            assert f"Round 1 · Table {table.number}" in page
        assert "5 December 2026" in pages[0]
        assert "C+" in "\n".join(pages)
        assert document_lang(content) == "en"

    def test_the_seating_list_and_the_protocol_follow_it_too(self, russian):
        round_ = played("ru")

        seating = "\n".join(pdf_text(round_seating_pdf(round_=round_)))
        protocol = "\n".join(pdf_text(standings_protocol_pdf(tournament=round_.tournament)))

        assert in_language("ru", SEATING_TITLE, number=1) in seating
        assert "Seating, round 1" not in seating
        assert in_language("ru", PROTOCOL_TITLE) in protocol
        assert PROTOCOL_TITLE not in protocol

    def test_printing_leaves_the_active_language_alone(self, russian):
        round_ = played("ru")

        with translation.override("en"):
            round_sheets_pdf(round_=round_, entry_url=entry_url)
            round_seating_pdf(round_=round_)
            standings_protocol_pdf(tournament=round_.tournament)
            assert translation.get_language() == "en"


class TestNotTheViewersLanguage:
    """The language of the request (Accept-Language, the switcher's cookie) chooses the pages'
    language, never a document's."""

    @pytest.mark.parametrize(
        "viewer",
        [
            pytest.param({"HTTP_ACCEPT_LANGUAGE": "en"}, id="Accept-Language en"),
            pytest.param({"HTTP_ACCEPT_LANGUAGE": "lv"}, id="Accept-Language lv"),
            pytest.param({"cookie": "en"}, id="language cookie en"),
        ],
    )
    def test_a_russian_tournaments_documents_stay_russian(self, client, russian, viewer):
        round_ = played("ru")
        slug = round_.tournament.slug
        if "cookie" in viewer:
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = viewer.pop("cookie")
        client.force_login(make_organiser())

        sheets = client.get(reverse("documents:round_sheets_pdf", args=[slug, 1]), **viewer)
        seating = client.get(reverse("documents:round_seating_pdf", args=[slug, 1]), **viewer)
        protocol = client.get(reverse("documents:standings_pdf", args=[slug]), **viewer)

        assert in_language("ru", SHEET_TITLE) in pdf_text(sheets.content)[0]
        assert in_language("ru", SEATING_TITLE, number=1) in pdf_text(seating.content)[0]
        assert in_language("ru", PROTOCOL_TITLE) in pdf_text(protocol.content)[0]
        assert document_lang(sheets.content) == "ru"

    def test_an_english_tournament_stays_english_for_a_russian_viewer(self, client, russian):
        round_ = played("en")
        slug = round_.tournament.slug
        client.force_login(make_organiser())

        sheets = client.get(
            reverse("documents:round_sheets_pdf", args=[slug, 1]), HTTP_ACCEPT_LANGUAGE="ru"
        )
        seating = client.get(
            reverse("documents:round_seating_pdf", args=[slug, 1]), HTTP_ACCEPT_LANGUAGE="ru"
        )

        assert SHEET_TITLE in pdf_text(sheets.content)[0]
        assert in_language("ru", SHEET_TITLE) not in pdf_text(sheets.content)[0]
        assert "Seating, round 1" in pdf_text(seating.content)[0]
