"""Sorting names the way a Latvian reader expects: ā after a, č after c, ... ž after z."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# The Latvian alphabet, with q w x y in their Latin places for foreign names.
LATVIAN_ALPHABET = "aābcčdeēfgģhiījkķlļmnņoprqsštuūvwxyzž"
_RANK = {letter: index for index, letter in enumerate(LATVIAN_ALPHABET)}


# A letter's key depends on the letter alone: computed once per letter, not once per letter of
# every name (a 600-player standings sorts about 8,000 letters of a few dozen kinds).
@lru_cache(maxsize=4096)
def _letter_key(letter: str) -> tuple[int, int]:
    if letter in _RANK:
        return (1, _RANK[letter])
    if not letter.isalnum():
        return (-1, 0)  # a space or hyphen ends a word: "Ozols Jānis" before "Ozolsone"
    if letter.isdigit():
        return (0, ord(letter))
    # Letters outside the alphabet (Cyrillic, ö, ...): their base letter when they have one,
    # otherwise after the Latin letters in code point order.
    base = unicodedata.normalize("NFD", letter)[0]
    if base in _RANK and base != letter:
        return (1, _RANK[base])
    return (2, ord(letter))


def latvian_sort_key(name: str) -> tuple[tuple[tuple[int, int], ...], str]:
    """A key that orders names alphabetically in Latvian, case-insensitively, then exactly."""
    folded = unicodedata.normalize("NFC", name.strip().casefold())
    return (tuple(_letter_key(letter) for letter in folded), name)


# --- sorting names in the reader's language ----------------------------------------------------

# The Russian alphabet (ё is a letter of its own, after е).
RUSSIAN_ALPHABET = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
_RUSSIAN_RANK = {letter: index for index, letter in enumerate(RUSSIAN_ALPHABET)}

SORT_LANGUAGES = ("lv", "en", "ru")

# Per language, the order of the scripts: a Latin letter, a Cyrillic one, another letter.
_SCRIPT_ORDER = {"en": (1, 2, 3), "ru": (2, 1, 3)}

NameKey = tuple[object, ...]


def _is_cyrillic(letter: str) -> bool:
    return "CYRILLIC" in unicodedata.name(letter, "")


def _base_and_marks(letter: str) -> tuple[str, str]:
    """A Latin letter without its diacritics, and the diacritics: "ā" → ("a", "\u0304")."""
    decomposed = unicodedata.normalize("NFD", letter)
    return decomposed[0], decomposed[1:]


def _primary(letter: str, scripts: tuple[int, int, int]) -> tuple[int, int]:
    latin, cyrillic, other = scripts
    if not letter.isalnum():
        return (-1, 0)  # a space or hyphen ends a word: "Ozols Jānis" before "Ozolsone"
    if letter.isdigit():
        return (0, ord(letter))
    if letter in _RUSSIAN_RANK:
        return (cyrillic, _RUSSIAN_RANK[letter])
    if _is_cyrillic(letter):  # і, ї, є, ў, ...: after the Russian alphabet
        return (cyrillic, len(RUSSIAN_ALPHABET) + ord(letter))
    base, _marks = _base_and_marks(letter)
    if "a" <= base <= "z":
        return (latin, ord(base))
    return (other, ord(base))


def _secondary(letter: str) -> str:
    """The diacritics of a Latin letter (none for a letter of the Russian alphabet: й, ё)."""
    if letter in _RUSSIAN_RANK or not letter.isalpha():
        return ""
    return _base_and_marks(letter)[1]


def name_sort_key(text: str, language: str | None) -> NameKey:
    """A key that orders names as a reader of `language` expects, case-insensitively, then exactly.

    - "lv": the Latvian alphabet (`latvian_sort_key`): ā after a, č after c, ... ž after z;
    - "en": the Latin alphabet, a letter's diacritics only telling otherwise equal names apart
      ("Ābele" among the A names, after "Abele"); Cyrillic names after the Latin ones;
    - "ru": the Russian alphabet (ё after е) first, then Latin-script names in the "en" order.

    A regional variant ("en-gb") sorts as its language; an unknown language (or None, when no
    language is active) sorts as Latvian, the application's default language. Equal keys only
    for equal texts: the exact text decides last.
    """
    code = (language or "lv").split("-")[0].lower()
    scripts = _SCRIPT_ORDER.get(code)
    if scripts is None:
        return ("lv", latvian_sort_key(text))
    folded = unicodedata.normalize("NFC", text.strip().casefold())
    return (
        code,
        tuple(_primary(letter, scripts) for letter in folded),
        tuple(_secondary(letter) for letter in folded),
        text,
    )


# --- Searching ------------------------------------------------------------------------------------

# Cyrillic as Latvian writes Russian names (Иванов → Ivanovs, Щербаков → Ščerbakovs), marks then
# dropped like the Latvian ones: a visitor types Latin letters without marks.
_CYRILLIC_TO_LATIN = {
    **dict(zip("абвгдзиклмнопрстуфхцыэ", "abvgdziklmnoprstufhcie", strict=True)),
    "е": "e", "ё": "jo", "ж": "z", "й": "j", "ч": "c", "ш": "s", "щ": "sc", "ъ": "", "ь": "",
    "ю": "ju", "я": "ja", "і": "i", "ї": "ji", "є": "je", "ў": "u", "ґ": "g",
}  # fmt: skip
# After a vowel, е is written je (Сергеев → Sergejevs).
_VOWELS = frozenset("aeiouj")
# English spellings of the same letters (Zhukov, Shcherbakov, Yakovlev) read as the Latvian
# ones. Each is replaced by a text that starts with its own first letter (or is one letter for
# one letter), so a name typed halfway still matches.
_LATIN_SPELLINGS = (("shch", "sc"), ("zh", "z"), ("ch", "c"), ("sh", "s"), ("y", "j"))


def _latin(text: str) -> str:
    letters: list[str] = []
    for letter in text:
        if letter == "е" and letters and letters[-1][-1:] in _VOWELS:
            letters.append("je")
        else:
            letters.append(_CYRILLIC_TO_LATIN.get(letter, letter))
    return "".join(letters)


def search_key(text: str) -> str:
    """A name as a forgiving search compares it: `search_key(typed) in search_key(name)`.

    Case, spaces and Latvian marks are ignored ("berzins" finds "Bērziņš"), Cyrillic is read in
    Latin letters ("ivanov" finds "Иванов", "иванов" finds "Ivanovs"), and a word's final s, the
    Latvian masculine ending, is dropped ("Ivanovs" finds "Иванов")."""
    latin = _latin(unicodedata.normalize("NFC", text.casefold()))
    decomposed = unicodedata.normalize("NFKD", latin)
    plain = "".join(letter for letter in decomposed if not unicodedata.combining(letter))
    for spelling, letters in _LATIN_SPELLINGS:
        plain = plain.replace(spelling, letters)
    return " ".join(
        word[:-1] if len(word) > 1 and word[-1] == "s" else word for word in plain.split()
    )


def search_spellings() -> dict[str, object]:
    """What `search_key` reads differently, for a page's script that keys what is typed the
    same way: the Cyrillic letters, the vowels after which е is je, the English spellings."""
    return {
        "cyrillic": dict(_CYRILLIC_TO_LATIN),
        "vowels": "".join(sorted(_VOWELS)),
        "latin": [list(pair) for pair in _LATIN_SPELLINGS],
    }
