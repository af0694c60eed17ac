"""The registrations page's filter (static/js/filter-list.js) finds players as every search does
(`engine.names.search_key`): what is typed is keyed in the browser exactly as the server keys
the names, and a filter that finds nobody says so."""

import pytest

from engine.names import search_key
from tests.factories import make_club, make_organiser, make_player, make_tournament

pytestmark = pytest.mark.django_db(transaction=True)

TYPED = (
    "Jānis Bērziņš",
    "BERZINS",
    "Cēsu Dūzis",
    "Иван Петров",
    "Сергеев",
    "Щербаков Ёлкин",
    "Zhukov Shcherbakov Yakovlev",
    "  Līga   Ozoliņa  ",
    "Ševčenko-Ņikitina",
)


def test_the_entries_filter_reads_names_as_every_search(live_server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="lv-LV")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        make_player(full_name="Jānis Bērziņš", club=make_club(name="Cēsu Dūzis"))
        make_player(full_name="Иван Петров")
        make_player(full_name="Anna Liepa", club=make_club(name="Rīgas Zoles klubs"))
        make_organiser(username="rita")
        make_tournament(slug="meklet")
        page.goto(f"{live_server.url}/accounts/login/?next=/organise/t/meklet/registrations/")
        page.fill("#id_username", "rita")
        page.fill("#id_password", "zole-pass-123")
        page.click("form.stacked button[type=submit]")
        page.wait_for_url(f"{live_server.url}/organise/t/meklet/registrations/")
        spellings = page.get_attribute("[data-filter-list]", "data-search-spellings")

        keyed = page.evaluate(
            "([texts, spellings]) => texts.map((t) => searchKey(t, JSON.parse(spellings)))",
            [list(TYPED), spellings],
        )
        assert keyed == [search_key(text) for text in TYPED]

        labels = page.locator("#id_players label")
        for typed, found in (
            ("berzins", ["Jānis Bērziņš (Cēsu Dūzis)"]),
            ("cesu", ["Jānis Bērziņš (Cēsu Dūzis)"]),
            ("petrovs", ["Иван Петров"]),
            ("", ["Anna Liepa (Rīgas Zoles klubs)", "Jānis Bērziņš (Cēsu Dūzis)", "Иван Петров"]),
        ):
            page.fill("[data-filter-list]", typed)
            visible = [label.inner_text().strip() for label in labels.all() if label.is_visible()]
            assert visible == found, typed
            assert not page.locator("#players-none").is_visible()

        page.fill("[data-filter-list]", "ozols")
        assert not any(label.is_visible() for label in labels.all())
        said = page.locator("#players-none").inner_text()
        assert "ozols" in said and said == page.get_attribute(
            "#players-none", "data-template"
        ).replace("%(query)s", "ozols")
    finally:
        context.close()
