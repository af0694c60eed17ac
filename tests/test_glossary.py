"""README's table of words (## Words) and the code agree: each name it gives exists where it
says, each model of the domain apps is named in it, and its Latvian and Russian words are the
ones the catalogues use on the pages."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import polib
from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent
DOMAIN_APPS = ("tournaments", "accounts", "hall", "signups", "scoring", "notices", "ranking")
# Models that hold machinery rather than a word of the game or the event.
MACHINERY = {
    "scoring.TableHeard": "when the server last heard a table's phone",
    "scoring.LatePlayer": "a late arrival: the registration's first deal, under check-in",
    "ranking.RatingUpdate": "a re-rating left to the job",
}


def glossary() -> list[tuple[str, str, str, list[str]]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Words\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("lv", "---"):
            rows.append((cells[0], cells[1], cells[2], re.findall(r"`([^`]+)`", cells[3])))
    return rows


def resolve(dotted: str) -> object:
    """`engine.rules.Game` or a module `engine.seating`."""
    try:
        return importlib.import_module(dotted)
    except ImportError:
        module, _, name = dotted.rpartition(".")
        return getattr(importlib.import_module(module), name)


def test_the_table_has_its_rows():
    rows = glossary()
    assert len(rows) >= 20
    assert all(code for _lv, _ru, _en, code in rows)


def test_every_name_in_the_code_column_exists():
    missing = []
    for _lv, _ru, en, names in glossary():
        for name in names:
            try:
                resolve(name)
            except (ImportError, AttributeError):
                missing.append(f"{en}: {name}")
    assert missing == []


def test_every_model_of_the_domain_is_named():
    named = {name.rsplit(".", 1)[1] for *_words, names in glossary() for name in names}
    unnamed = [
        model._meta.label
        for app in DOMAIN_APPS
        for model in apps.get_app_config(app).get_models()
        if model.__name__ not in named and model._meta.label not in MACHINERY
    ]
    assert unnamed == []


def catalogue_text(language: str) -> str:
    catalogue = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    return "\n".join(entry.msgstr for entry in catalogue if entry.msgstr).lower()


def stem(word: str) -> str:
    """A word less its ending, which Latvian and Russian inflect (reģistrs, reģistrā)."""
    return word[:-1] if len(word) >= 5 else word


def used_in(words: str, catalogue: str) -> bool:
    return all(stem(word) in catalogue for word in words.lower().split())


def test_the_latvian_and_russian_words_are_the_pages_words():
    latvian, russian = catalogue_text("lv"), catalogue_text("ru")
    unknown = [lv for lv, _ru, _en, _code in glossary() if not used_in(lv, latvian)]
    unknown += [ru for _lv, ru, _en, _code in glossary() if not used_in(ru, russian)]
    assert unknown == []
