"""Comments are written for a reader of the clone: the project's files name no issue or item of
the tracker and no document outside the repository (the reader has neither), every file or
section of the documentation a comment points to exists, every module says what it is for, and
the package metadata's readme is the README."""

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Where the source is: the packages, the tests, the benchmarks, the pages' templates and static
# files, the build and CI files. The documentation (README.md, docs/) is held to the same words.
SOURCE_DIRS = (
    "engine",
    "core",
    "tournaments",
    "scoring",
    "ranking",
    "archive",
    "documents",
    "entry",
    "organise",
    "public",
    "demo",
    "zole_site",
    "tests",
    "bench",
    "templates",
    "static",
    ".ci",
)
SOURCE_FILES = ("pyproject.toml", "Makefile", "manage.py", "gunicorn.conf.py")
DOCUMENTATION = ("README.md", "CONTRIBUTING.md", "docs")
TEXT_SUFFIXES = {".py", ".js", ".css", ".html", ".toml", ".md", ".txt", ".json", ""}
NOT_OURS = {"__pycache__", "node_modules"}

# A tracker's issue or item (the word and its number, one or several), the design documents the
# project was written from, and the folder beside the clone they sit in.
OUTSIDE = re.compile(
    r"\b[Ii]ssues?\s+\d+"
    r"|\b[Ii]tems?\s+\d+"
    r"|\b(?:DESIGN|RULES|SEATING)\.md\b"
    r"|(?:\.\./|/work/)shared/"
)
# A file of the repository named by its path from the top (a test, a benchmark, a page's script),
# or by its name for the template loader or the static files.
NAMED_FROM = (ROOT / "templates", ROOT / "static")
# A section of the documentation named by its heading: (README, "Production"), (docs/rules.md,
# "Presets"); the heading may run over two lines of a comment.
SECTION = re.compile(r'\b(README|docs/[\w/]+\.md),\s+"([^"]+)"')
REPOSITORY_PATH = re.compile(
    r"(?<![\w/.-])((?:engine|core|tournaments|scoring|ranking|archive|documents|entry|public|demo|zole_site|tests|bench|docs|static)"
    r"/[\w./-]*\w\.(?:py|js|css|md|json|toml))\b"
)


def project_files(*tops: str) -> list[Path]:
    """The text files under `tops` (folders or files, from the repository's top), minified
    vendored scripts (htmx.min.js) left out: they are a library's, not ours."""
    found = []
    for top in tops:
        start = ROOT / top
        candidates = [start] if start.is_file() else sorted(start.rglob("*"))
        for path in candidates:
            if not path.is_file() or NOT_OURS & set(path.relative_to(ROOT).parts):
                continue
            if path.suffix in TEXT_SUFFIXES and not path.name.endswith(".min.js"):
                found.append(path)
    return found


SOURCE = project_files(*SOURCE_DIRS, *SOURCE_FILES)


def outside_references(text: str) -> list[str]:
    """Each reference to an issue, an item or a document outside the repository, with its line."""
    return [
        f"{text.count(chr(10), 0, match.start()) + 1}: {match.group()}"
        for match in OUTSIDE.finditer(text)
    ]


def missing_paths(text: str) -> list[str]:
    """Each repository path named in `text` that the repository does not have, with its line."""
    return [
        f"{text.count(chr(10), 0, match.start()) + 1}: {match.group(1)}"
        for match in REPOSITORY_PATH.finditer(text)
        if not any((top / match.group(1)).exists() for top in (ROOT, *NAMED_FROM))
    ]


def headings(document: str) -> set[str]:
    path = ROOT / ("README.md" if document == "README" else document)
    return set(re.findall(r"^#{1,6} (.+?)\s*$", path.read_text(encoding="utf-8"), re.M))


def missing_sections(text: str) -> list[str]:
    """Each section of the README or docs/ named in `text` that the document does not have."""
    found = []
    for match in SECTION.finditer(text):
        document, heading = match.groups()
        heading = re.sub(r"\s*\n\s*(?:#|//|\*)?\s*", " ", heading)
        line = text.count(chr(10), 0, match.start()) + 1
        if not (ROOT / ("README.md" if document == "README" else document)).is_file():
            found.append(f"{line}: {document}")
        elif heading not in headings(document):
            found.append(f"{line}: {document}, {heading}")
    return found


def name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def findings(check, files: list[Path]) -> dict[str, list[str]]:
    return {
        name(path): found for path in files if (found := check(path.read_text(encoding="utf-8")))
    }


def test_the_scan_reads_the_whole_project():
    names = {name(path) for path in SOURCE}
    assert {
        "engine/seating/__init__.py",
        "tests/conftest.py",
        "bench/engine.py",
        "templates/base.html",
        "static/js/sheet-scoring.js",
        "static/css/site.css",
        "pyproject.toml",
        "Makefile",
        ".ci/run",
    } <= names
    assert "static/js/htmx.min.js" not in names


class TestTheScan:
    """The scan itself finds each kind of reference (the examples are built in pieces, so that
    this file does not hold what it looks for)."""

    @pytest.mark.parametrize(
        "comment",
        [
            "# the deal's answer (iss" + "ue 14, it" + "em 1)",
            '"""Load test (iss' + 'ues 6 and 14)."""',
            "/* Ranking pages (Iss" + "ue 8) */",
            "{# (iss" + "ue\n    13, it" + "em 17) #}",
            "# federation it" + "ems 5 and 6",
            "# the roles (" + "DESIGN" + ".md)",
            "# " + "RULES" + '.md, "Worked examples"',
            '"""Table sizes (' + "SEATING" + '.md)."""',
            'readme = "see /work/' + 'shared/README"',
            "# ../" + "shared/notes",
        ],
    )
    def test_it_finds_a_reference_to_the_outside(self, comment):
        assert outside_references(comment)

    @pytest.mark.parametrize(
        "comment",
        [
            '# the rules (docs/rules.md, "Words"), the README\'s command line',
            "# a shared place, shared/2, the seats' order: 1-4=2",
            "# 14 players, 3 rounds: item by item",
        ],
    )
    def test_it_leaves_the_projects_own_words_alone(self, comment):
        assert outside_references(comment) == []

    def test_it_finds_a_section_the_documentation_does_not_have(self):
        unknown = "(README" + ', "Deployment")'
        text = f'# (README, "Production"), (docs/rules.md,\n# "Presets"), {unknown}'
        assert missing_sections(text) == ["2: README, Deployment"]

    def test_it_finds_a_test_file_that_does_not_exist(self):
        missing = "tests/scoring/" + "test_no_such_file.py"
        text = f"checked by {missing} and tests/test_comments.py"
        assert missing_paths(text) == [f"1: {missing}"]


def test_no_file_names_an_issue_or_a_document_outside_the_repository():
    files = SOURCE + project_files(*DOCUMENTATION)
    assert findings(outside_references, files) == {}


def test_every_file_a_comment_points_to_exists():
    assert findings(missing_paths, SOURCE) == {}


def test_every_section_a_comment_points_to_is_in_its_document():
    assert findings(missing_sections, SOURCE) == {}


def test_every_module_says_what_it_is_for():
    """A module with code opens with a docstring (what it is for, and why); generated
    migrations and empty package files are left out."""
    silent = [
        name(path)
        for path in SOURCE
        if path.suffix == ".py"
        and "migrations" not in path.parts
        and (tree := ast.parse(path.read_text(encoding="utf-8"))).body
        and ast.get_docstring(tree) is None
    ]
    assert silent == []


def test_the_package_readme_is_the_clones_readme():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["readme"] == "README.md"
    assert (ROOT / project["readme"]).is_file()
