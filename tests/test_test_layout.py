"""The tests mirror the code: the test of `tournaments/services/rounds.py` is found in
`tests/tournaments/services/`, that of `engine/seating/sizes.py` in `tests/engine/seating/`.

- Every source package with a module of its own has a folder of tests at the same path, with at
  least one test file in it.
- Every module with logic has its test file at the mirrored path: `tournaments/services/rounds.py`
  is tested in `tests/tournaments/services/test_rounds.py`. A module tested elsewhere (through the
  pages or the public function that drive it) is listed below with where and why; the list is
  kept true (every module listed exists and still lacks its mirrored test file).
- Every folder of tests mirrors a source package (the browser tests, which cross the apps, live in
  tests/e2e/), and is a package itself: test files of the same name in two folders
  (tests/api/test_services.py, tests/ranking/test_services.py) must not collide.
- The few tests at the top of tests/ are the cross-cutting ones listed below, each with its reason.
- A test imports helpers from the top of tests/ or from its own folder and the folders above it,
  never from a sibling folder: a helper two apps share is a shared helper, and lives at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_architecture import project_packages

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

# Source packages that need no folder of tests of their own (one may still exist, at the same path).
NEEDS_NO_TEST_FOLDER = {
    "management/commands": "a command parses its arguments and calls a service, tested as such",
    "templatetags": "a template tag is tested through the pages that render it",
}
# Constants Django reads itself: the dates of every language are tested in tests/test_i18n.py.
DJANGO_FORMAT_MODULES = {"zole_site/formats/en"}

# Modules without logic of their own, or of a kind tested through what uses it, by file name.
MODULES_NEEDING_NO_TEST = {
    "__init__.py": "a package's face: it re-exports what its modules define, tested there",
    "apps.py": "an app's configuration for Django",
    "admin.py": "the Django admin's configuration of the models",
    "urls.py": "URL patterns: tests/test_access_matrix.py requests every URL in every role",
    "models.py": "models say what is stored; the services that write them are tested",
}
# A package of models is split models.py, and needs no more tests than it.
MODEL_PACKAGES = {"models"}

# Modules with logic whose test is not at the mirrored path: where it is tested, and why there.
MODULES_TESTED_ELSEWHERE = {
    "entry/views.py": "the table entry page: tests/entry/test_entry_pages.py drives every action",
    # api/
    "api/pages_urls.py": "URL patterns: tests/test_access_matrix.py requests every URL",
    "api/routes.py": "the API's answers to refused and missing: tests/api/test_docs.py, the "
    "access matrix",
    "api/selectors.py": "the tokens list of the API's page, read by tests/api/test_views.py",
    # archive/
    "archive/checking.py": "tests/archive/test_import.py refuses each bad archive it checks",
    "archive/people_checks.py": "tests/archive/test_import.py refuses each bad club, player, entry "
    "and online registration",
    "archive/export.py": "tests/archive/test_archive.py: the written archive re-scores",
    "archive/format.py": "the archive's field formats, read back by tests/archive/test_import.py",
    "archive/plan.py": "what an import writes, planned: tests/archive/test_import.py",
    "archive/reading.py": "tests/archive/test_import.py reads good and bad archives",
    "archive/round_checks.py": "tests/archive/test_import.py refuses each bad round",
    "archive/table_checks.py": "tests/archive/test_import.py refuses each bad table",
    "archive/writing.py": "tests/archive/test_import.py and test_round_trip_properties.py",
    # core/
    "core/http.py": "types only (the request of a signed-in page): mypy checks its use",
    "core/lean_tables.py": "the lists and their spreadsheet export: tests/public/test_views.py, "
    "tests/ranking/test_ranking_tables.py",
    # demo/
    "demo/synthetic.py": "test data: the played seasons tests/ranking/test_services.py ranks",
    # documents/: one document drawn by several modules, each read back whole as printed
    "documents/fonts.py": "tests/documents/test_documents.py and test_documents_public_api.py",
    "documents/layout.py": "every document's frame: tests/documents/test_documents.py reads "
    "them back",
    "documents/pen.py": "tests/documents/test_documents.py and test_documents_public_api.py",
    "documents/printing.py": "tests/documents/test_documents.py prints every document",
    "documents/protocol.py": "the standings protocol: tests/documents/test_documents.py",
    "documents/qr.py": "tests/documents/test_documents.py reads the table link's QR code",
    "documents/score_sheet_rows.py": "the score sheet's rows: tests/documents/test_documents.py, "
    "test_document_language.py",
    "documents/score_sheets.py": "the score sheets: tests/documents/test_documents.py",
    "documents/seating_list.py": "the seating list: tests/documents/test_documents.py",
    "documents/sheet_data.py": "tests/documents/test_documents.py, test_document_language.py",
    "documents/sheet_foot.py": "the score sheet's foot: tests/documents/test_documents.py, "
    "test_shared_places.py",
    # documents/selectors/: what a document reads, checked in the document as printed
    "documents/selectors/results.py": "the standings protocol: tests/documents/test_documents.py; "
    "the prize list: tests/documents/test_prize_list.py",
    "documents/selectors/round_sheets.py": "the score sheets: tests/documents/test_documents.py",
    "documents/selectors/seating_lists.py": "the seating list: tests/documents/test_documents.py",
    "documents/views.py": "the PDFs' pages: tests/documents/test_documents.py, the access matrix",
    # engine/: the engine's tests follow docs/rules.md, rule by rule, not module by module
    "engine/__main__.py": "`python -m engine`: tests/engine/test_cli.py",
    "engine/deals.py": "tests/engine/test_validation.py, test_payouts.py and test_pules.py",
    "engine/errors.py": "every message of an error: tests/engine/test_messages.py",
    "engine/json_contract.py": "tests/engine/test_cli.py, test_validation.py, test_properties.py",
    "engine/presets.py": "the rules a preset sets: tests/tournaments/test_rule_set.py",
    "engine/rules.py": "tests/engine/test_payouts.py (every payout table), test_validation.py",
    "engine/sheet.py": "tests/engine/test_pules.py, test_properties.py, test_validation.py",
    "engine/simulate.py": "random sheets for tests/engine/test_properties.py, itself checked there",
    # engine/seating/: seat_players is the one way in; its tests check every plan it makes
    "engine/seating/checks.py": "refused input: tests/engine/seating/test_seating.py, "
    "tests/engine/test_messages.py",
    "engine/seating/designs.py": "the stored designs: tests/engine/seating/test_seating_fours.py",
    "engine/seating/flags.py": "the flags of a plan: tests/engine/seating/test_seating.py, "
    "tests/engine/test_messages.py",
    "engine/seating/mix.py": "mode mix: tests/engine/seating/test_seating_fours.py, "
    "test_seating_properties.py",
    "engine/seating/new_rounds.py": "tests/engine/seating/test_seating_properties.py, "
    "test_seating_ranked.py",
    "engine/seating/planning.py": "tests/engine/seating/test_seating_small.py (against an "
    "exhaustive search), test_seating_properties.py",
    "engine/seating/schedule.py": "tests/engine/seating/test_seating.py (the independent checker)",
    "engine/seating/search.py": "tests/engine/seating/test_seating_small.py (against an "
    "exhaustive search)",
    "engine/seating/seat.py": "seat_players: every test of tests/engine/seating/",
    "engine/seating/seat_contract.py": "`python -m engine seat`: tests/engine/test_seat_cli.py",
    "engine/seating/swiss.py": "mode swiss: tests/engine/seating/test_seating_fours.py, "
    "test_seating_properties.py",
    # entry/: the page's modules, driven through the page's forms and the phone's sync
    "entry/correction_posts.py": "corrections and removals: tests/entry/test_entry_pages.py, "
    "test_entry_sync.py",
    "entry/deal_posts.py": "deals, penalties, confirmation: tests/entry/test_entry_pages.py, "
    "test_entry_sync.py",
    "entry/entries.py": "every entry action, by the plain form (tests/entry/test_entry_pages.py) "
    "and the sync (test_entry_sync.py)",
    "entry/page.py": "the sheet shown and each entry's outcome: tests/entry/test_entry_pages.py, "
    "test_entry_sync.py, test_late_players_page.py",
    "entry/forms.py": "the entry forms: tests/entry/test_offered_forms.py",
    "entry/phone.py": "tests/entry/test_entry_phone.py, a name entry/phone.py's comment cites",
    "entry/state.py": "the table's state: tests/entry/test_entry_sync.py, test_js_fixtures.py",
    "entry/sync.py": "tests/entry/test_entry_sync.py, a name the offline-entry decision record "
    "cites",
    # organise/: the organiser's pages, driven as the organiser uses them
    "organise/player_table.py": "the register's list: tests/organise/views/test_pages.py",
    "organise/forms/fees.py": "the fees' forms: tests/organise/views/test_fees.py",
    "organise/forms/fields.py": "ids and registrations chosen by number: "
    "tests/organise/views/test_hostile_input.py",
    "organise/forms/registrations.py": "tests/organise/forms/test_register.py, "
    "tests/tournaments/test_player_search.py",
    "organise/forms/rounds.py": "check-in, seating and a swap: "
    "tests/organise/views/test_check_in_and_calls.py, tests/organise/views/test_pages.py",
    "organise/forms/signups.py": "tests/organise/views/test_signups.py",
    "organise/forms/tournament.py": "a tournament's options: tests/tournaments/test_rule_set.py",
    "organise/audit_log.py": "the audit log in words: tests/tournaments/selectors/test_audit.py",
    "organise/forms/seasons.py": "the season's forms: tests/organise/views/test_seasons.py",
    "organise/forms/people.py": "the roles' forms: tests/tournaments/test_permissions.py",
    "organise/views/audit.py": "the audit log page: tests/tournaments/selectors/test_audit.py",
    "organise/views/links.py": "the table links: tests/entry/test_entry_pages.py, "
    "tests/organise/views/test_check_in_and_calls.py",
    "organise/views/people.py": "roles and referees' pages: tests/tournaments/test_permissions.py",
    "organise/views/referee_calls.py": "tests/organise/views/test_check_in_and_calls.py",
    "organise/views/register.py": "players and clubs' pages: tests/organise/views/test_pages.py",
    "organise/views/rounds.py": "a round's pages: tests/organise/views/test_pages.py, "
    "tests/tournaments/test_check_in_seating.py",
    "organise/views/tournaments.py": "tests/organise/views/test_pages.py (the whole flow)",
    # public/
    "public/forms.py": "the sign-up form: tests/public/test_signup.py",
    # ranking/
    "ranking/ranking_page_cache.py": "the cached ranking pages: tests/ranking/test_views.py",
    "ranking/receivers.py": "the ranking's reactions: tests/scoring/test_reactions.py",
    "tournaments/round_reactions.py": "signals: tests/notices/test_notice_receivers.py hears each",
    "signups/signup_reactions.py": "signals: tests/notices/test_notice_receivers.py hears each",
    "core/web_app.py": "the manifests: tests/entry/test_offline.py, tests/public/test_my_page.py",
    "demo/push_service.py": "the suite's own push service: tests/notices/test_push.py sends to it",
    "ranking/selectors.py": "tests/ranking/test_views.py, test_ranking_tables.py, test_services.py",
    "ranking/services/placings.py": "tests/ranking/test_services.py (one file for the ranking's "
    "services)",
    "ranking/services/rating_job.py": "tests/ranking/test_services.py",
    "ranking/services/ratings.py": "tests/ranking/test_services.py",
    "ranking/services/seasons.py": "seasons and invitations: tests/organise/views/test_seasons.py",
    # scoring/selectors/: the public pages that show what they read
    "scoring/selectors/display.py": "the hall display: tests/public/test_display.py",
    "scoring/selectors/listing.py": "the tournament list: tests/public/test_views.py",
    "scoring/selectors/players.py": "the player's page: tests/public/test_views.py",
    "scoring/selectors/prize_standings.py": "the prize list: tests/documents/test_prize_list.py",
    "scoring/selectors/progress.py": "tests/entry/test_entry_pages.py, "
    "tests/tournaments/test_deals_per_table_size.py",
    "scoring/selectors/round_page.py": "the round's page: tests/public/test_views.py",
    "scoring/selectors/standings_before.py": "the standings a round is seated by: "
    "tests/scoring/services/test_round_writes.py",
    # scoring/services/
    "scoring/services/phone_heard.py": "when a table's phone was last heard from: "
    "tests/entry/test_entry_sync.py",
    # scoring/sheet/
    "scoring/sheet/door.py": "who may open a table's sheet: tests/test_access_matrix.py, "
    "tests/tournaments/test_permissions.py",
    "scoring/sheet/lines.py": "tests/scoring/services/test_deal_entries.py, "
    "tests/entry/test_entry_sync.py",
    "scoring/sheet/reader.py": "a table's sheet read: tests/scoring/sheet/test_plain_sql.py, "
    "tests/scoring/services/test_deal_entries.py",
    "scoring/sheet/shape.py": "the sheet as the page shows it: tests/entry/test_entry_pages.py",
    # accounts/
    "accounts/access.py": "who may open which page: tests/test_access_matrix.py",
    "accounts/context_processors.py": "the header's links by role: "
    "tests/tournaments/test_permissions.py",
    # signups/
    "signups/selectors.py": "tests/signups/test_services.py",
    # tournaments/
    "tournaments/bounds.py": "constants, no logic: the largest numbers the forms and archives take",
    "tournaments/player_csv.py": "tests/tournaments/services/test_player_import.py reads CSV files",
    "tournaments/selectors/fees.py": "the fund: tests/tournaments/services/test_fees.py",
    "tournaments/selectors/rounds.py": "tests/tournaments/test_check_in_seating.py, "
    "test_deals_per_table_size.py",
    "tournaments/selectors/seating.py": "the history a new round is seated against: "
    "tests/tournaments/services/test_rounds.py",
    "tournaments/services/audit.py": "every action's entry: "
    "tests/tournaments/selectors/test_audit.py",
    "tournaments/services/clock.py": "with the round clock: tests/tournaments/test_round_clock.py",
    "tournaments/services/locks.py": "a table gone under a write: tests/scoring/test_reseating.py",
    "tournaments/services/links.py": "a table's entry link issued and revoked: "
    "tests/entry/test_entry_pages.py, tests/api/test_table_entries_api.py",
    "tournaments/services/refusal.py": "the services' error: raised in every services test",
    "tournaments/services/tournaments.py": "the settings saved and audited: "
    "tests/tournaments/selectors/test_audit.py, tests/organise/views/test_pages.py",
    # zole_site/
    "zole_site/asgi.py": "the server's entry point: Django's own",
    "zole_site/wsgi.py": "the server's entry point: Django's own",
    "zole_site/documentation.py": "the help pages: tests/test_documentation.py",
}

# Folders of tests that mirror no package.
CROSS_APP_FOLDERS = {
    "e2e": "browser tests: one page in a real browser touches several apps",
}

# Test files at the top of tests/: what they check crosses every app.
CROSS_CUTTING = {
    "test_access_matrix.py": "every URL against every role",
    "test_architecture.py": "the layers between the packages (import-linter)",
    "test_bench.py": "bench/ is a folder of scripts, not a package",
    "test_comments.py": "the comments of every package",
    "test_crash.py": "the whole server killed and its database restarted under it",
    "test_documentation.py": "docs/ in three languages, the README and the help pages",
    "test_hostile_input.py": "hostile names on every page of every app, odd addresses everywhere",
    "test_hostile_queries.py": "one generated sweep of query strings over every URL",
    "test_glossary.py": "README's words against the code and the catalogues of every app",
    "test_i18n.py": "the translation catalogues and every page in every language",
    "test_module_names.py": "no two modules of any package share a name",
    "test_name_order.py": "the reader's alphabetical order in every list of every app",
    "test_orm_layers.py": "the ORM paths between the apps' layers",
    "test_statistics_from_archive.py": "the statistics of the pages and the API against the "
    "archive's sheets re-scored by the engine",
    "test_test_layout.py": "the layout of tests/ itself",
}


def source_packages() -> dict[str, Path]:
    """Every source package of the project (those the import contracts cover), by its path
    ('tournaments/services')."""
    return {
        package.replace(".", "/"): ROOT.joinpath(*package.split("."))
        for package in sorted(project_packages())
    }


def has_own_module(folder: Path) -> bool:
    return any(path.name != "__init__.py" for path in folder.glob("*.py"))


def exempt(package: str) -> bool:
    return package in DJANGO_FORMAT_MODULES or any(
        package.endswith("/" + ending) or package == ending for ending in NEEDS_NO_TEST_FOLDER
    )


def modules_with_logic() -> list[str]:
    """Every module with logic of its own, by its path ('tournaments/services/rounds.py')."""
    return sorted(
        f"{package}/{path.name}"
        for package, folder in source_packages().items()
        if not exempt(package) and package.split("/")[-1] not in MODEL_PACKAGES
        for path in folder.glob("*.py")
        if path.name not in MODULES_NEEDING_NO_TEST
    )


def mirrored_test(module: str) -> Path:
    """tournaments/services/rounds.py -> tests/tournaments/services/test_rounds.py"""
    path = Path(module)
    return TESTS / path.parent / f"test_{path.name}"


def folders_of_tests() -> list[Path]:
    return sorted(
        path
        for path in TESTS.rglob("*")
        if path.is_dir() and path.name != "__pycache__" and any(path.glob("*.py"))
    )


def test_every_package_has_a_folder_of_tests():
    missing = [
        package
        for package, folder in source_packages().items()
        if has_own_module(folder)
        and not exempt(package)
        and not any((TESTS / package).glob("test_*.py"))
    ]
    assert missing == [], f"packages without tests/<same path>/test_*.py: {missing}"


def test_every_module_with_logic_has_its_test_at_the_mirrored_path():
    missing = [
        module
        for module in modules_with_logic()
        if module not in MODULES_TESTED_ELSEWHERE and not mirrored_test(module).exists()
    ]
    assert missing == [], (
        "modules without tests/<its path>/test_<module>.py (write one, or list the module in "
        f"MODULES_TESTED_ELSEWHERE with where it is tested): {missing}"
    )


def test_the_modules_tested_elsewhere_are_modules_with_logic():
    modules = set(modules_with_logic())
    assert [module for module in MODULES_TESTED_ELSEWHERE if module not in modules] == []


def test_no_module_tested_elsewhere_has_since_gained_its_mirrored_test():
    gained = [module for module in MODULES_TESTED_ELSEWHERE if mirrored_test(module).exists()]
    assert gained == [], f"tested at the mirrored path now, take off the list: {gained}"


def test_every_folder_of_tests_mirrors_a_package():
    packages = source_packages()
    strays = []
    for folder in folders_of_tests():
        relative = folder.relative_to(TESTS).as_posix()
        if relative.split("/")[0] in CROSS_APP_FOLDERS:
            continue
        if relative not in packages:
            strays.append(relative)
    assert strays == [], f"folders of tests that mirror no source package: {strays}"


def test_every_folder_of_tests_is_a_package():
    missing = [
        folder.relative_to(ROOT).as_posix()
        for folder in [TESTS, *folders_of_tests()]
        if not (folder / "__init__.py").exists()
    ]
    assert missing == [], f"folders of tests without __init__.py: {missing}"


def test_the_top_of_tests_holds_only_the_cross_cutting_tests():
    top = sorted(path.name for path in TESTS.glob("test_*.py"))
    assert [name for name in top if name not in CROSS_CUTTING] == [], (
        "a test of one package belongs in tests/<its path>/"
    )
    assert [name for name in CROSS_CUTTING if name not in top] == []


def imported_test_modules(path: Path) -> list[str]:
    """The modules of tests/ the file imports, relative imports made absolute."""
    package = path.parent.relative_to(ROOT).parts
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            names.append(".".join([*base, *([node.module] if node.module else [])]))
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return [name for name in names if name == "tests" or name.startswith("tests.")]


def test_no_test_imports_from_a_sibling_folder():
    crossings = []
    for path in sorted(TESTS.rglob("*.py")):
        folder = path.parent.relative_to(ROOT).parts  # ("tests", "public", ...)
        if len(folder) == 1:
            continue  # the top of tests/ holds the shared helpers and the cross-cutting tests
        for module in imported_test_modules(path):
            parts = tuple(module.split("."))
            # tests.factories -> ("tests",); tests.public.x -> ("tests", "public")
            imported_folder = (
                parts[:-1] if (ROOT.joinpath(*parts).with_suffix(".py")).exists() else parts
            )
            if imported_folder != folder[: len(imported_folder)]:
                crossings.append(f"{path.relative_to(ROOT)} imports {module}")
    assert crossings == [], "helpers shared by folders belong at the top of tests/:\n" + "\n".join(
        crossings
    )
