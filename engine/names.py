"""Names: sorted the way a Latvian reader expects (ā after a, č after c, ... ž after z), searched
forgivingly, cleaned as they are stored (nothing invisible, one alphabet a word), and compared
as a likely duplicate is found (look-alike letters of another alphabet read as Latin ones)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
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


# --- Names as typed: cleaned, one alphabet a word, look-alike letters folded ---------------------

# Letters that show as a blank (Hangul fillers, the blank Braille pattern): a space in a name.
_BLANKS_TEXT = "\u115f\u1160\u3164\uffa0\u2800"
_BLANKS = dict.fromkeys(map(ord, _BLANKS_TEXT), " ")
# Invisible besides the format characters (Unicode category Cf: zero-width spaces and joiners,
# soft hyphen, word joiner, byte order mark, the bidirectional controls): the combining grapheme
# joiner, Khmer's inherent vowels, Mongolian's variation selectors and the variation selectors.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0xFE00, 0xFE0F),
    (0xE0100, 0xE01EF),
)


_IGNORABLE = frozenset(
    chr(point) for low, high in _IGNORABLE_RANGES for point in range(low, high + 1)
)
# What a quick look seeks besides what str.isprintable finds (the format characters).
_HIDDEN = _IGNORABLE | frozenset(_BLANKS_TEXT)


def _invisible(letter: str) -> bool:
    return unicodedata.category(letter) == "Cf" or letter in _IGNORABLE


def clean_name(text: str) -> str:
    """A name as it is stored: composed letters (NFC), nothing invisible, the words separated by
    one space (any white space, a no-break space too), none before or after."""
    if not text.isprintable() or not _HIDDEN.isdisjoint(text):
        text = "".join(letter for letter in text.translate(_BLANKS) if not _invisible(letter))
    return " ".join(unicodedata.normalize("NFC", text).split())


# The alphabets a word may mix: Japanese writes kanji with kana, Korean hanja with hangul.
_EAST_ASIAN = frozenset({"Cjk", "Hiragana", "Katakana", "Katakana-Hiragana", "Hangul", "Bopomofo"})


@lru_cache(maxsize=4096)
def alphabet(letter: str) -> str | None:
    """The alphabet (Unicode script) of a letter, as its Unicode name begins: "Latin",
    "Cyrillic", "Greek", ...; None for what is no letter of an alphabet (a digit, punctuation, a
    combining mark, a modifier letter used as an apostrophe). A letter's compatibility form
    counts as its plain letter: a fullwidth Ｊ is Latin."""
    if not letter.isalpha():
        return None
    for part in unicodedata.normalize("NFKD", letter):
        first = unicodedata.name(part, "").split(" ", 1)[0]
        if part.isalpha() and first and first not in ("MODIFIER", "IDEOGRAPHIC"):
            return first.title()
        if first == "IDEOGRAPHIC":  # 々, 〆: written with kanji
            return "Cjk"
    return None


@dataclass(frozen=True, slots=True)
class MixedWord:
    """A word whose letters belong to more than one alphabet, with its alphabets in the order
    they come: ("Rīgа", ("Latin", "Cyrillic")) when the last а is Cyrillic."""

    word: str
    alphabets: tuple[str, ...]


def mixed_word(name: str) -> MixedWord | None:
    """The first word (between spaces) of a name whose letters are of two alphabets or more (a
    look-alike letter of another alphabet, as a Cyrillic а in a Latin word); None when each
    word keeps to one. The words may differ: a name may be Latin with a Cyrillic word."""
    for word in name.split():
        alphabets = tuple(dict.fromkeys(filter(None, map(alphabet, word))))
        groups = {"East Asian" if one in _EAST_ASIAN else one for one in alphabets}
        if len(groups) > 1:
            return MixedWord(word, alphabets)
    return None


# Cyrillic and Greek letters that read as a Latin letter, each as that letter: a register
# compares "Rīgа" with a Cyrillic а as "Rīga". A table of our own rather than Unicode's
# confusables data (confusables.txt, or a package that ships it): that data maps each
# character to a skeleton that also folds Latin letters into each other (l and I, rn and m,
# 0 and O), so different real names would meet; these are the letters a Latvian, Russian or
# Greek keyboard slips into a Latin name, in their own case (a capital reads as a capital:
# Н is H, н is no Latin letter). Marks stay: й is и with a breve, as ї is і with a diaeresis.
LOOK_ALIKES: dict[str, str] = {
    # Cyrillic
    "А": "A", "а": "a", "В": "B", "Е": "E", "е": "e", "К": "K", "к": "k", "М": "M",
    "Н": "H", "О": "O", "о": "o", "Р": "P", "р": "p", "С": "C", "с": "c", "Т": "T",
    "Х": "X", "х": "x", "У": "Y", "у": "y", "г": "r", "п": "n", "Ѕ": "S", "ѕ": "s",
    "І": "I", "і": "i", "Ј": "J", "ј": "j", "ԁ": "d", "һ": "h", "Ӏ": "I", "ӏ": "l",
    "Ԛ": "Q", "ԛ": "q", "Ԝ": "W", "ԝ": "w", "Ү": "Y", "Ѵ": "V", "ѵ": "v",
    # Greek
    "Α": "A", "α": "a", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "η": "n", "Ι": "I",
    "ι": "i", "Κ": "K", "κ": "k", "Μ": "M", "Ν": "N", "ν": "v", "Ο": "O", "ο": "o",
    "Ρ": "P", "ρ": "p", "Τ": "T", "τ": "t", "Υ": "Y", "υ": "u", "Χ": "X", "χ": "x",
    "γ": "y", "ω": "w", "Ϲ": "C", "ϲ": "c", "Ϳ": "J", "ϳ": "j",
}  # fmt: skip
_LOOK_ALIKE_TABLE = str.maketrans(LOOK_ALIKES)
# The look-alikes and their letters with marks (ё, ά, ...), for a quick look.
_FOLDABLE = frozenset(LOOK_ALIKES) | frozenset(
    chr(point)
    for low, high in ((0x0370, 0x052F), (0x1F00, 0x1FFF))
    for point in range(low, high + 1)
    if unicodedata.normalize("NFD", chr(point))[:1] in LOOK_ALIKES
)


def fold_look_alikes(name: str) -> str:
    """The name with the look-alike letters of its Latin words read as Latin letters. A word is
    Latin when it has a Latin letter, or when all its letters look Latin and another word of
    the name is Latin ("Jānis Вос" in Cyrillic reads "Jānis Boc"). A Cyrillic word stays
    Cyrillic: "Сергей" is read as Latvian writes it (`search_key`), not by its looks."""
    if _FOLDABLE.isdisjoint(name):
        return name
    words = name.split()
    latin_words = [any(alphabet(letter) == "Latin" for letter in word) for word in words]
    folded = []
    for word, latin in zip(words, latin_words, strict=True):
        decomposed = unicodedata.normalize("NFD", word)
        looks_latin = any(latin_words) and all(
            letter in LOOK_ALIKES or not letter.isalpha() for letter in decomposed
        )
        if latin or looks_latin:
            word = unicodedata.normalize("NFC", decomposed.translate(_LOOK_ALIKE_TABLE))
        folded.append(word)
    return " ".join(folded)


# A register's names are keyed again for each name compared with them: once is enough.
@lru_cache(maxsize=16384)
def same_name_key(text: str) -> str:
    """The key two names (or two clubs) that read alike share: a likely duplicate in the
    register. Cleaned (`clean_name`), look-alike letters read as Latin ones, then compared as
    a search compares (`search_key`: no case, no marks, Cyrillic as Latvian writes it)."""
    return search_key(fold_look_alikes(clean_name(text)))
