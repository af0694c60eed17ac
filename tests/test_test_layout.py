"""The tests mirror the code: the test of `tournaments/services/rounds.py` is found in
`tests/tournaments/services/`, that of `engine/seating/sizes.py` in `tests/engine/seating/`.

- Every source package with a module of its own has a folder of tests at the same path, with at
  least one test file in it.
- Every folder of tests mirrors a source package (the browser tests, which cross the apps, live in
  tests/e2e/), and is a package itself: test files of the same name in two folders
  (tests/scoring/test_services.py, tests/ranking/test_services.py) must not collide.
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
    "test_i18n.py": "the translation catalogues and every page in every language",
    "test_module_names.py": "no two modules of any package share a name",
    "test_name_order.py": "the reader's alphabetical order in every list of every app",
    "test_orm_layers.py": "the ORM paths between the apps' layers",
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
