"""Sorting names in the reader's language: what a Latvian, English or Russian reader
expects to find where in an alphabetical list of players."""

from __future__ import annotations

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
