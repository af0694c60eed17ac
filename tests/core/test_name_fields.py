"""Names as every door takes them: cleaned as stored, refused when a word mixes alphabets, with
a message that names the field and the word in the reader's language."""

from __future__ import annotations

import pytest
from django import forms
from django.utils import translation

from core.name_fields import NameField, name_problem


class ClubForm(forms.Form):
    club = NameField(label="Club", max_length=12)


def test_a_name_is_stored_without_its_invisible_letters_and_extra_spaces():
    form = ClubForm({"club": " Rīgas\u200b\u00a0 Zoles\u202e "})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["club"] == "Rīgas Zoles"


def test_the_length_is_the_cleaned_names():
    assert ClubForm({"club": "Rīgas\u200b\u200b\u200b Zoles"}).is_valid()


def test_a_word_of_two_alphabets_is_refused_naming_the_field_the_word_and_the_alphabets():
    form = ClubForm({"club": "Rīgа"})  # a Cyrillic а
    assert not form.is_valid()
    assert form.errors["club"] == [
        "Club: the word “Rīgа” mixes Latin and Cyrillic letters; type it again in one alphabet"
    ]


def test_a_wholly_cyrillic_name_is_taken():
    form = ClubForm({"club": "Иван Петров"})
    assert form.is_valid(), form.errors


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (
            "lv",
            "Klubs: vārdā “Zοles” sajaukti latīņu un grieķu burti; ierakstiet to vēlreiz "
            "vienā alfabētā",
        ),
        (
            "ru",
            "Клуб: в слове «Zοles» смешаны латинские и греческие буквы; наберите его заново "
            "буквами одного алфавита",
        ),
    ],
)
def test_the_message_is_in_the_readers_language(language, message):
    with translation.override(language):
        assert name_problem("Rīgas Zοles", translation.gettext("Club")) == message


def test_an_alphabet_without_a_word_of_its_own_is_another_alphabet():
    assert name_problem("Ꭻānis", "Name") == (
        "Name: the word “Ꭻānis” mixes Latin and other letters; type it again in one alphabet"
    )
    assert name_problem("Ꭻ\u0561", "Name") == (
        "Name: the word “Ꭻ\u0561” mixes letters of different alphabets; type it again in one "
        "alphabet"
    )
