"""Names as every door takes them (a form, a CSV line, the API): cleaned as they are stored, and
refused, with a message that names the field, when a word mixes alphabets (engine/names.py)."""

from __future__ import annotations

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from engine.names import MixedWord, clean_name, mixed_word

# An alphabet as the message names its letters ("mixes Latin and Cyrillic letters").
ALPHABET_WORDS: dict[str, Promise] = {
    "Latin": pgettext_lazy("letters of an alphabet", "Latin"),
    "Cyrillic": pgettext_lazy("letters of an alphabet", "Cyrillic"),
    "Greek": pgettext_lazy("letters of an alphabet", "Greek"),
}
OTHER_ALPHABET = pgettext_lazy("letters of an alphabet", "other")


def mixed_alphabets_message(field: str, mixed: MixedWord) -> str:
    """ "Club: the word “Rīgа” mixes Latin and Cyrillic letters; ...", in the reader's language."""
    words = list(
        dict.fromkeys(str(ALPHABET_WORDS.get(name, OTHER_ALPHABET)) for name in mixed.alphabets)
    )
    words.sort(key=lambda word: word == str(OTHER_ALPHABET))  # "Latin and other letters"
    params = {"field": field, "word": mixed.word}
    if len(words) < 2:
        return (
            _(
                "%(field)s: the word “%(word)s” mixes letters of different alphabets; type it "
                "again in one alphabet"
            )
            % params
        )
    alphabets = _("%(first)s and %(second)s") % {
        "first": ", ".join(words[:-1]),
        "second": words[-1],
    }
    return _(
        "%(field)s: the word “%(word)s” mixes %(alphabets)s letters; type it again in one alphabet"
    ) % {**params, "alphabets": alphabets}


def name_problem(name: str, field: object) -> str | None:
    """What is wrong with a cleaned name (`clean_name`), naming the field (its label or a CSV
    column's word); None when nothing is."""
    mixed = mixed_word(name)
    return None if mixed is None else mixed_alphabets_message(str(field), mixed)


class NameField(forms.CharField):
    """A name, a club, a team: stored cleaned (composed letters, nothing invisible, one space
    between words, `clean_name`), refused when a word mixes alphabets. The length is checked on
    the cleaned text."""

    def to_python(self, value: object) -> str | None:
        value = super().to_python(value)
        return clean_name(value) if isinstance(value, str) else value

    def validate(self, value: str) -> None:
        super().validate(value)
        problem = name_problem(value, self.label or "")
        if problem:
            raise forms.ValidationError(problem, code="mixed_alphabets")
