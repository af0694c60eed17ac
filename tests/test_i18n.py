"""Latvian first, Russian and English too: complete catalogues, the site's default language, the
switcher that remembers the choice, and every page in each language."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

import zole_site.settings as project_settings

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _name in project_settings.LANGUAGES]
TRANSLATED = [code for code in LANGUAGES if code != "en"]  # English is the source


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def described(entries: list[polib.POEntry]) -> list[str]:
    return [f"{entry.occurrences[:1]} {entry.msgid!r}" for entry in entries]


class TestCatalogues:
    @pytest.mark.parametrize("language", TRANSLATED)
    def test_no_entry_is_untranslated(self, language):
        untranslated = [
            entry for entry in catalogue(language).untranslated_entries() if not entry.obsolete
        ]
        assert described(untranslated) == []

    @pytest.mark.parametrize("language", TRANSLATED)
    def test_no_entry_is_fuzzy(self, language):
        po = catalogue(language)
        fuzzy = [entry for entry in po.fuzzy_entries() if not entry.obsolete]
        assert described(fuzzy) == []
        assert "fuzzy" not in po.metadata_as_entry().flags

    @pytest.mark.parametrize("language", TRANSLATED)
    def test_every_placeholder_is_kept(self, language):
        """A translation that drops or renames %(name)s fails at run time, in that language
        only: each form of each entry uses exactly the placeholders of its English text."""
        placeholder = re.compile(r"%\((\w+)\)[sdfr]|\{(\w+)\}")

        def names(text: str) -> set[str]:
            return {a or b for a, b in placeholder.findall(text)}

        broken = []
        for entry in catalogue(language).translated_entries():
            if entry.msgid_plural:
                wanted = names(entry.msgid) | names(entry.msgid_plural)
                # A singular form may say "one" instead of %(count)s.
                forms = entry.msgstr_plural.values()
                if any(not names(form) <= wanted for form in forms) or not any(
                    names(form) == wanted for form in forms
                ):
                    broken.append(entry)
            elif names(entry.msgstr) != names(entry.msgid):
                broken.append(entry)
        assert described(broken) == []

    # Participles and words that agree with a man only, said of a named player or to the reader:
    # "Inese Ēķe pārcelts", "Jūs esat reģistrēts" (Latvian), "Инесе переведён" (Russian).
    MASCULINE_ONLY = {
        "lv": re.compile(
            r"%\(name\)s (ir |jau ir |jau )?(pārcelts|pieņemts|noraidīts|reģistrēts|reģistrējies|"
            r"ielūgts|izslēgts|atzīmēts|pirmais)|[Jj]ūs esat (reģistrēts|atzīmēts|pieteicies)"
        ),
        "ru": re.compile(
            r"%\(name\)s (уже )?(зарегистрирован|принят|переведён|приглашён|исключён|опоздал|"
            r"пришёл|отмечен)\b|%\(name\)s — первый"
        ),
    }

    @pytest.mark.parametrize("language", TRANSLATED)
    def test_a_player_is_addressed_in_forms_that_fit_anyone(self, language):
        masculine = [
            entry
            for entry in catalogue(language).translated_entries()
            if any(
                self.MASCULINE_ONLY[language].search(text)
                for text in [entry.msgstr, *entry.msgstr_plural.values()]
            )
        ]
        assert described(masculine) == []

    def test_the_catalogues_hold_every_marked_string(self, tmp_path):
        """makemessages run on a copy of the code finds nothing the catalogues lack: a string
        marked but never added to them would show in English."""
        copy = tmp_path / "site"
        ignore = shutil.ignore_patterns(
            ".venv", ".git", "__pycache__", "*.mo", "tests", "bench", "staticfiles", "backups"
        )
        shutil.copytree(ROOT, copy, ignore=ignore)
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "makemessages",
                *(f"--locale={language}" for language in TRANSLATED),
                "--ignore=staticfiles",
                "--add-location=file",
                "--verbosity=0",
            ],
            cwd=copy,
            check=True,
            capture_output=True,
        )
        for language in TRANSLATED:
            extracted = polib.pofile(str(copy / "locale" / language / "LC_MESSAGES/django.po"))
            present = {(entry.msgctxt, entry.msgid) for entry in catalogue(language)}
            missing = [
                entry
                for entry in extracted
                if not entry.obsolete and (entry.msgctxt, entry.msgid) not in present
            ]
            assert (language, described(missing)) == (language, [])


@pytest.mark.django_db
class TestLanguageChoice:
    @pytest.fixture(autouse=True)
    def _the_sites_real_default(self, settings):
        settings.LANGUAGE_CODE = project_settings.LANGUAGE_CODE

    def test_latvian_is_the_default_for_a_visitor_who_states_no_preference(self):
        assert project_settings.LANGUAGE_CODE == "lv"
        response = Client().get(reverse("home"))
        assert response.status_code == 200
        assert '<html lang="lv">' in response.content.decode()

    def test_the_browsers_preference_is_followed(self):
        response = Client(headers={"accept-language": "ru-RU,ru;q=0.9"}).get(reverse("home"))
        assert '<html lang="ru">' in response.content.decode()

    def test_a_language_nobody_offers_falls_back_to_latvian(self):
        response = Client(headers={"accept-language": "de-DE"}).get(reverse("home"))
        assert '<html lang="lv">' in response.content.decode()

    def test_the_switcher_is_on_every_page_and_leads_back_to_it(self):
        html = Client().get(reverse("home")).content.decode()
        for language in LANGUAGES:
            assert f"{reverse('language', args=[language])}?next=/" in html

    def test_the_choice_is_remembered_over_the_browsers_preference(self):
        browser = Client(headers={"accept-language": "lv"})
        response = browser.get(reverse("language", args=["ru"]), {"next": "/players/1/?x=1"})
        assert response.status_code == 302 and response.url == "/players/1/?x=1"
        cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
        assert cookie.value == "ru"
        assert int(cookie["max-age"]) >= 365 * 24 * 3600
        assert cookie["httponly"] and cookie["samesite"] == "Lax"
        assert '<html lang="ru">' in browser.get(reverse("home")).content.decode()
        browser.get(reverse("language", args=["en"]))
        assert '<html lang="en">' in browser.get(reverse("home")).content.decode()

    @pytest.mark.parametrize(
        "next_url", ["https://evil.example/", "//evil.example/", "javascript:alert(1)", ""]
    )
    def test_the_switcher_never_leads_off_the_site(self, next_url):
        response = Client().get(reverse("language", args=["en"]), {"next": next_url})
        assert response.status_code == 302 and response.url == reverse("home")

    def test_an_unknown_language_is_not_found(self):
        assert Client().get("/language/de/").status_code == 404
        assert settings.LANGUAGE_COOKIE_NAME not in Client().get("/language/de/").cookies

    def test_a_cached_public_page_is_kept_per_language(self):
        """Anonymous pages come from the cache: a Russian visitor never gets the Latvian copy."""
        latvian = Client().get(reverse("home")).content.decode()
        russian = Client(headers={"accept-language": "ru"}).get(reverse("home")).content.decode()
        assert '<html lang="lv">' in latvian and '<html lang="ru">' in russian
        with translation.override("ru"):
            assert translation.gettext("Zole tournaments") in russian


def visible_text(html: str) -> str:
    """The page's text as a reader sees it: no tags, scripts or styles, entities decoded."""
    import html as html_module

    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    return html_module.unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def world(db):
    """A played tournament (two rounds confirmed, round 3 in play), a staff organiser."""
    from django.contrib.auth.models import User

    from tests.tournament_play import played_tournament, publish_next_round
    from tournaments.services import round_clock_start

    tournament = played_tournament(
        players=9, rounds=2, slug="kauss", rounds_planned=3, round_time_limit=50
    )
    round_three = publish_next_round(tournament, seed=11)
    staff = User.objects.create(username="staff", is_staff=True)
    round_clock_start(round_=round_three, by=staff)  # the clock's words on every page
    table = round_three.tables.order_by("number").first()
    token = table.tokens.filter(revoked_at__isnull=True).first().token
    player_id = tournament.registrations.order_by("pk").first().player_id
    public = [
        reverse("home"),
        reverse("public:tournament", args=["kauss"]),
        reverse("public:round", args=["kauss", 1]),
        reverse("public:table", args=["kauss", 1, 1]),
        reverse("public:standings", args=["kauss"]),
        reverse("public:statistics", args=["kauss"]),
        reverse("public:player", args=[player_id]),
        reverse("ranking:season"),
        reverse("ranking:rating"),
        reverse("entry:token_sheet", args=[token]),
        reverse("login"),
        reverse("public:display", args=["kauss"]),
    ]
    # Parts of pages that htmx fetches alone: no <html> of their own.
    fragments = [
        reverse("public:display_clock", args=["kauss"]),
        reverse("public:round_clock", args=["kauss", 3]),
    ]
    organiser = [
        reverse("organise:dashboard"),
        reverse("organise:create"),
        reverse("organise:players"),
        reverse("organise:player_import"),
        reverse("organise:clubs"),
        reverse("organise:detail", args=["kauss"]),
        reverse("organise:edit", args=["kauss"]),
        reverse("organise:registrations", args=["kauss"]),
        reverse("organise:meetings", args=["kauss"]),
        reverse("organise:round", args=["kauss", 3]),
        reverse("organise:referees", args=["kauss", 3]),
        reverse("organise:roles", args=["kauss"]),
        reverse("organise:audit", args=["kauss"]),
        reverse("entry:table_sheet", args=[table.pk]),
        reverse("organise:qualification", args=["kauss"]),
    ]
    return {"staff": staff, "public": public, "organiser": organiser, "fragments": fragments}


def english_left_over(text: str, language: str) -> list[str]:
    """Catalogue texts (a few words or more, without placeholders) that the page shows in
    English although the catalogue translates them: a template that forgot to mark one."""
    leftovers = []
    for entry in catalogue(language).translated_entries():
        english = entry.msgid
        if (
            entry.msgid_plural
            or "%" in english
            or "{" in english
            or len(english) < 12
            or " " not in english
            or entry.msgstr == english
        ):
            continue
        if english in text:
            leftovers.append(english)
    return leftovers


@pytest.mark.django_db
class TestEveryPageInEveryLanguage:
    @pytest.mark.parametrize("language", LANGUAGES)
    def test_public_and_referee_pages(self, world, language):
        browser = Client()
        browser.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for url in world["public"]:
            response = browser.get(url)
            assert (url, response.status_code) == (url, 200)
            html = response.content.decode()
            assert f'<html lang="{language}">' in html, url
            if language != "en":
                assert english_left_over(visible_text(html), language) == [], url

    @pytest.mark.parametrize("language", TRANSLATED)
    def test_the_parts_htmx_fetches(self, world, language):
        browser = Client()
        browser.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for url in world["fragments"]:
            response = browser.get(url)
            assert (url, response.status_code) == (url, 200)
            text = visible_text(response.content.decode())
            assert english_left_over(text, language) == [], url
            with translation.override(language):
                assert (
                    translation.gettext("Time left") in text
                    or translation.gettext("Round %(number)s: time left") % {"number": 3} in text
                ), url

    @pytest.mark.parametrize("language", LANGUAGES)
    def test_organiser_pages(self, world, language):
        browser = Client()
        browser.force_login(world["staff"])
        browser.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for url in world["organiser"]:
            response = browser.get(url)
            assert (url, response.status_code) == (url, 200)
            html = response.content.decode()
            assert f'<html lang="{language}">' in html, url
            if language != "en":
                assert english_left_over(visible_text(html), language) == [], url
            else:  # the check sees English when there is English to see
                assert english_left_over(visible_text(html), "lv"), url

    def test_dates_follow_the_language(self, world):
        from django.utils import formats

        from tournaments.models import Tournament

        starts_on = Tournament.objects.get(slug="kauss").starts_on
        url = reverse("public:tournament", args=["kauss"])
        shown = {}
        for language in LANGUAGES:
            browser = Client()
            browser.cookies[settings.LANGUAGE_COOKIE_NAME] = language
            text = visible_text(browser.get(url).content.decode())
            with translation.override(language):
                shown[language] = formats.date_format(starts_on, "SHORT_DATE_FORMAT")
            assert shown[language] in text, language
        assert len(set(shown.values())) == 3  # 5.12.2026, 05.12.2026, 5 Dec 2026


class TestOneDateFormatPerLanguage:
    """Each language writes a date one way, and English spells the month: 12/01/2026 beside
    1.1.2026 on one page could be read either way."""

    @pytest.mark.parametrize(
        "name", ["DATE_FORMAT", "SHORT_DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATETIME_FORMAT"]
    )
    def test_english_dates_name_the_month(self, name):
        import datetime

        from django.utils import formats

        with translation.override("en"):
            written = formats.date_format(datetime.datetime(2026, 12, 1, 18, 30), name)
        assert "Dec" in written and "12/01" not in written and "1" in written, written

    def test_templates_use_the_languages_formats_not_their_own(self):
        own = []
        for template in (ROOT / "templates").rglob("*.html"):
            text = template.read_text(encoding="utf-8")
            for fmt in re.findall(r"""\|date:["']([^"']+)["']""", text):
                if not re.fullmatch(r"[A-Z_]+_FORMAT|c", fmt):
                    own.append(f"{template.relative_to(ROOT)}: {fmt}")
        assert own == []


class TestDistinctWords:
    # Checking in at the hall is not registering (the organiser's) nor signing up (online).
    REGISTERING = {
        "lv": re.compile(r"reģistr|pieteik", re.I),
        "ru": re.compile(r"регистр|запис", re.I),
    }

    @pytest.mark.parametrize("language", TRANSLATED)
    def test_checking_in_is_never_called_registering_or_signing_up(self, language):
        """The hall display's private link came with "reģistrēšanās kods" beside a check-in
        page called "Atzīmēšanās" by a page that also says "Pieteikties"."""
        about_check_in = re.compile(r"check(ed|s)? (themselves |himself |you |them )?in|check-in")
        mixed = [
            entry
            for entry in catalogue(language).translated_entries()
            if about_check_in.search(entry.msgid)
            and not re.search(r"regist|sign", entry.msgid, re.I)
            and any(
                self.REGISTERING[language].search(text)
                for text in [entry.msgstr, *entry.msgstr_plural.values()]
            )
        ]
        assert described(mixed) == []

    def test_latvian_names_the_season_ranking_and_the_standings_apart(self):
        """ "Kopvērtējums" named both the season ranking and a tournament's standings."""
        with translation.override("lv"):
            standings = translation.gettext("Standings")
            ranking = {
                translation.gettext("Season ranking"),
                translation.pgettext("navigation", "Season ranking"),
                translation.gettext("Ranking points"),
            }
        assert standings == "Kopvērtējums"
        assert not any("kopvērtēj" in text.lower() for text in ranking), ranking
        ranking_texts = [
            entry.msgstr
            for entry in catalogue("lv")
            if "ranking" in entry.msgid.lower() and not entry.obsolete and entry.msgstr
        ]
        assert [text for text in ranking_texts if "kopvērtēj" in text.lower()] == []
