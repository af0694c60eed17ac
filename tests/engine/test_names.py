"""Sorting names in the reader's language: what a Latvian, English or Russian reader
expects to find where in an alphabetical list of players; a name cleaned as it is stored, a
word of two alphabets found, and names that read alike given one key."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import names
from engine.names import latvian_sort_key, name_sort_key


def in_order(names: list[str], language: str | None) -> list[str]:
    return sorted(names, key=lambda name: name_sort_key(name, language))


def test_latvian_readers_find_each_long_and_hooked_letter_after_its_plain_letter():
    # The Latvian alphabet: a ā b c č d e ē f g ģ h i ī j k ķ l ļ m n ņ o p r s š t u ū v z ž.
    expected = [
        "Auziņš",
        "Āboliņa",
        "Cīrulis",
        "Čakste",
        "Grīnbergs",
        "Ģirts",
        "Ivanova",
        "Īvāns",
        "Krūmiņš",
        "Ķēniņš",
        "Lācis",
        "Ļaudama",
        "Nīcis",
        "Ņikitins",
        "Sproģis",
        "Šmits",
        "Urbāns",
        "Ūdris",
        "Zariņš",
        "Žagars",
    ]
    assert in_order(list(reversed(expected)), "lv") == expected


def test_latvian_order_is_the_engines_latvian_key():
    names = ["Žagars", "Zariņš", "Ābele", "Abele", "Ozols Jānis", "Ozolsone Anna"]
    assert in_order(names, "lv") == sorted(names, key=latvian_sort_key)


def test_english_readers_find_a_letter_with_diacritics_among_its_plain_letter():
    expected = [
        "Abele",  # the plain letter first when the names are otherwise equal
        "Ābele",
        "Anna",
        "Čakste",
        "Cukurs",
        "Sīlis",
        "Šmits",
        "Sproģis",
        "Žagars",
        "Zariņš",
    ]
    assert in_order(list(reversed(expected)), "en") == expected


def test_english_order_puts_cyrillic_names_after_the_latin_ones():
    assert in_order(["Иванов", "Zariņš", "Abele"], "en") == ["Abele", "Zariņš", "Иванов"]


def test_russian_readers_find_yo_after_ye_and_latin_names_after_the_cyrillic_ones():
    expected = [
        "Абрамов",
        "Елисеев",
        "Ершов",
        "Ёлкин",  # ё is a letter of its own, after е
        "Жуков",
        "Иванов",
        "Йогансон",  # й after и, not a variant of it
        "Яковлев",
        "Abele",  # Latin-script names after the Cyrillic ones, in the English order
        "Ābele",
        "Čakste",
        "Cukurs",
    ]
    assert in_order(list(reversed(expected)), "ru") == expected


@pytest.mark.parametrize("language", ["lv", "en", "ru"])
def test_case_does_not_matter_and_a_space_ends_a_word(language):
    names = ["ozolsone Anna", "OZOLS Jānis", "Ozoliņa Ieva"]
    assert in_order(names, language)[1:] == ["OZOLS Jānis", "ozolsone Anna"]


@pytest.mark.parametrize(
    ("language", "as_language"), [("en-gb", "en"), ("ru-RU", "ru"), ("de", "lv"), (None, "lv")]
)
def test_a_regional_variant_sorts_as_its_language_and_an_unknown_one_as_latvian(
    language, as_language
):
    names = ["Ёлкин", "Ершов", "Žagars", "Zariņš", "Ābele", "Anna"]
    assert in_order(names, language) == in_order(names, as_language)


NAMES = st.text(alphabet=st.sampled_from("aAāĀbcčČeēgģiīkķlļnņsšuūzžZŽ -'еёЕЁжийЙяöß1"), max_size=8)


@pytest.mark.parametrize("language", ["lv", "en", "ru"])
@given(first=NAMES, second=NAMES, third=NAMES)
def test_the_key_is_a_total_order_consistent_with_equality(language, first, second, third):
    key = {name: name_sort_key(name, language) for name in (first, second, third)}
    assert (key[first] == key[second]) == (first == second)
    # Any two names compare, one way only; the order is transitive.
    assert (key[first] < key[second]) + (key[second] < key[first]) + (first == second) == 1
    if key[first] <= key[second] <= key[third]:
        assert key[first] <= key[third]
    # Sorting does not depend on the order the names come in.
    names = [first, second, third]
    assert in_order(names, language) == in_order(list(reversed(names)), language)


class TestSearchKey:
    """One forgiving key for every name search: case, Latvian marks and the Cyrillic script."""

    @pytest.mark.parametrize(
        ("typed", "name"),
        [
            ("berzins", "Jānis Bērziņš"),
            ("ivanov", "Иван Иванов"),
            ("ivanovs", "Ivanovs"),
            ("zukovs", "Жуков"),
            ("zhukov", "Жуков"),
            ("scerbakovs", "Щербаков"),
            ("shcherbakov", "Щербаков"),
            ("jakovlev", "Яковлев"),
            ("sergejevs", "Сергеев"),
            ("yakovlev", "Яковлев"),
            ("čajkovsk", "Чайковский"),
            ("ļebedevs", "Лебедев"),
            ("иванов", "Ivanov"),
        ],
    )
    def test_a_name_is_found_as_it_is_typed(self, typed, name):
        assert names.search_key(typed) in names.search_key(name)

    def test_spaces_are_collapsed_and_case_folded(self):
        assert names.search_key("  JĀNIS   Bērziņš ") == names.search_key("janis berzins")
        assert " " not in names.search_key("  Bērziņš ")


# --- Names as typed: cleaned, one alphabet a word, look-alike letters folded ------------------

# What a pasted or hostile "Jānis Bērziņš" hides: each reads as the name on a page.
INVISIBLE_VARIANTS = [
    "Jā\u200bnis Bērziņš",  # a zero-width space
    "Jānis Bēr\u00adziņš",  # a soft hyphen
    "Jānis\u2060 Bērziņš",  # a word joiner
    "\u202eJānis Bērziņš\u202c",  # a right-to-left override and its end
    "\u2066Jānis\u2069 Bērziņš",  # an isolate and its end
    "\ufeffJānis Bērziņš",  # a byte order mark
    "Jā\u200c\u200dnis Bērziņš",  # a zero-width non-joiner and joiner
    "Jānis\u00a0Bērziņš",  # a no-break space
    "  Jānis \u2003\t Bērziņš\u3000",  # an em space, a tab, an ideographic space
    "Ja\u0304nis Be\u0304rzin\u0327s\u030c",  # the marks typed after their letters (NFD)
    "Jā\ufe0fnis Bērziņš",  # a variation selector
    "Jānis\u3164Bērziņš",  # a Hangul filler: a letter that shows as a space
]


class TestCleanName:
    """A name as it is stored: composed letters, nothing invisible, one space between words."""

    @pytest.mark.parametrize("typed", INVISIBLE_VARIANTS)
    def test_an_invisible_or_decomposed_variant_is_the_name_itself(self, typed):
        assert names.clean_name(typed) == "Jānis Bērziņš"

    def test_the_staff_imports_hidden_override_is_removed(self):
        assert names.clean_name("Zw\u200bsp \u202eevil") == "Zwsp evil"

    @pytest.mark.parametrize(
        "name", ["Jānis Bērziņš", "Иван Петров", "Anna-Marija O'Neil", "Līga 2", "Ņikita Ļebedevs"]
    )
    def test_a_clean_name_stays_as_it_is(self, name):
        assert names.clean_name(name) == name

    @given(st.text())
    def test_cleaning_twice_changes_nothing_more(self, text):
        once = names.clean_name(text)
        assert names.clean_name(once) == once
        assert once == once.strip()
        assert "  " not in once
        assert not any(unicodedata.category(letter) == "Cf" for letter in once)


class TestMixedWord:
    """A word (between spaces) is written in one alphabet: Latin, Cyrillic, Greek, ..."""

    @pytest.mark.parametrize(
        ("name", "word", "alphabets"),
        [
            ("Jānis Bērziņš Rīgа", "Rīgа", ("Latin", "Cyrillic")),  # a Cyrillic а
            ("Rīgas Zοles klubs", "Zοles", ("Latin", "Greek")),  # a Greek ο
            ("Иван Пeтров", "Пeтров", ("Cyrillic", "Latin")),  # a Latin e
            ("Ꭻānis Bērziņš", "Ꭻānis", ("Cherokee", "Latin")),  # a Cherokee Ꭻ
        ],
    )
    def test_a_word_of_two_alphabets_is_found_with_its_alphabets(self, name, word, alphabets):
        assert names.mixed_word(name) == names.MixedWord(word, alphabets)

    @pytest.mark.parametrize(
        "name",
        [
            "Jānis Bērziņš",
            "Ģirts Šteins-Ķikuts",
            "Иван Петров",  # Russian-speaking players are registered in Cyrillic
            "Ivan Петров",  # one alphabet in each word
            "Anna O'Neil 2",  # digits and punctuation belong to no alphabet
            "Rīgas Zoles klubs №1",
            "Ζωή Παπαδοπούλου",
            "山田たろう",  # Japanese writes kanji and kana together
            "",
        ],
    )
    def test_a_word_of_one_alphabet_is_not_mixed(self, name):
        assert names.mixed_word(name) is None


class TestSameNameKey:
    """The key two names read alike by: a likely duplicate in the register."""

    @pytest.mark.parametrize("typed", INVISIBLE_VARIANTS)
    def test_an_invisible_variant_is_the_same_name(self, typed):
        assert names.same_name_key(typed) == names.same_name_key("Jānis Bērziņš")

    @pytest.mark.parametrize(
        ("look_alike", "name"),
        [
            ("Rīgа", "Rīga"),  # Cyrillic а
            ("Rīgas Zοles klubs", "Rīgas Zoles klubs"),  # Greek ο
            ("Jānis Веrziņš", "Jānis Berziņš"),  # Cyrillic В and е
            ("Сēsu Pule", "Cēsu Pule"),  # Cyrillic С
            ("Pēteris Kаlniņš", "Pēteris Kalniņš"),  # Cyrillic а
            ("Kārlis Čаkstе", "Kārlis Čakste"),  # Cyrillic а and е
            ("Jānis Вос", "Jānis Boc"),  # a Cyrillic word of look-alikes beside Latin words
            ("Αnna Ρauls", "Anna Pauls"),  # Greek Α and Ρ
            ("Edgars Vītοls", "edgars vitols"),  # Greek ο; case and marks as always
            ("Ieva Ķikutе", "IEVA ĶIKUTE"),  # Cyrillic е
            ("Ｊānis Bērziņš", "Jānis Bērziņš"),  # a fullwidth letter
        ],
    )
    def test_a_look_alike_letter_reads_as_the_latin_letter(self, look_alike, name):
        assert names.same_name_key(look_alike) == names.same_name_key(name)

    def test_a_cyrillic_name_is_still_read_as_latvian_writes_it(self):
        assert names.same_name_key("Сергей Иванов") == names.same_name_key("Sergejs Ivanovs")

    def test_different_names_stay_different(self):
        assert names.same_name_key("Jānis Bērziņš") != names.same_name_key("Jānis Bērziņa")
        assert names.same_name_key("Иван Петров") != names.same_name_key("Ivan Pavlov")


class TestLookAlikes:
    """The table of letters that read as Latin ones (engine.names.LOOK_ALIKES)."""

    def test_each_look_alike_is_a_cyrillic_or_greek_letter_read_as_a_latin_one(self):
        for letter, latin in names.LOOK_ALIKES.items():
            assert unicodedata.name(letter).split()[0] in ("CYRILLIC", "GREEK"), letter
            assert latin.isascii() and latin.isalpha() and len(latin) == 1, letter
            # The same case: a capital reads as a capital.
            assert letter.isupper() == latin.isupper(), letter

    @pytest.mark.parametrize("letter", "аеорсхуіјѕԁһӏАВЕКМНОРСТХУ")
    def test_the_cyrillic_letters_latin_keyboards_mistake_are_there(self, letter):
        assert letter in names.LOOK_ALIKES

    @pytest.mark.parametrize("letter", "οανρτιΑΒΕΗΙΚΜΝΟΡΤΧΥΖ")
    def test_the_greek_letters_that_read_as_latin_ones_are_there(self, letter):
        assert letter in names.LOOK_ALIKES
