"""A module's name says what it holds: no two modules of the project share one.

Django's conventional names (models, views, urls, ...) repeat by design, one per app, and so do
the modules of a conventional package: `organise/views/rounds.py` is `views.rounds`, beside
`services.rounds` and `selectors.rounds`. Any other name is the project's own and says one
thing: a reader who meets `tables` or `cache` in an import should not have to ask which one.
Template tag libraries are loaded by their bare name (`{% load ... %}`), so theirs count too.
"""

from collections import defaultdict
from pathlib import Path

from tests.test_architecture import APPS

ROOT = Path(__file__).resolve().parent.parent
CONVENTIONAL = frozenset(
    {
        "__init__",
        "admin",
        "apps",
        "forms",
        "models",
        "selectors",
        "services",
        "tests",
        "urls",
        "views",
    }
)
# Packages whose modules are named with the package: `views.rounds`, `services.rounds`.
CONVENTIONAL_PACKAGES = frozenset({"forms", "models", "selectors", "services", "views"})
# Names that say nothing of what the module holds.
VAGUE = frozenset({"common", "helpers", "misc", "util", "utils"})


def project_modules() -> list[Path]:
    return sorted(
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.relative_to(ROOT).parts
    )


def module_name(path: Path) -> str:
    """The name a reader knows the module by: `rounds`, or `views.rounds` in a conventional
    package."""
    if path.parent.name in CONVENTIONAL_PACKAGES:
        return f"{path.parent.name}.{path.stem}"
    return path.stem


def clashes() -> dict[str, list[str]]:
    """The project's own names borne by more than one module, with the modules."""
    by_stem: dict[str, list[Path]] = defaultdict(list)
    for path in project_modules():
        if path.stem not in CONVENTIONAL:
            by_stem[path.stem].append(path)
    found = {}
    for stem, paths in by_stem.items():
        names = [module_name(path) for path in paths]
        # `views.rounds` beside `services.rounds` is one subject in two conventional roles; a
        # plain `rounds` beside either is a second subject under the same word.
        if len(set(names)) < len(names) or (len(paths) > 1 and stem in names):
            found[stem] = sorted(str(path.relative_to(ROOT)) for path in paths)
    return found


def test_the_conventions_are_read_from_the_project():
    assert module_name(ROOT / "organise/views/rounds.py") == "views.rounds"
    assert module_name(ROOT / "engine/rules.py") == "rules"
    assert any(path.parent.name == "templatetags" for path in project_modules())


def test_no_two_modules_share_a_name():
    assert clashes() == {}


def test_no_module_has_a_name_that_says_nothing():
    vague = [str(path.relative_to(ROOT)) for path in project_modules() if path.stem in VAGUE]
    assert vague == []
