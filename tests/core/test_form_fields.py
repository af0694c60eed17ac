"""A form's field as the kind it was declared."""

import pytest
from django import forms

from core.form_fields import field_of


class GameForm(forms.Form):
    game = forms.ChoiceField(choices=[("zole", "zole")])
    points = forms.IntegerField()


def test_a_field_is_handed_back_as_the_kind_it_was_declared():
    form = GameForm()
    field = field_of(form, "game", forms.ChoiceField)
    field.choices = [("pass", "everyone passed")]
    assert form.fields["game"].choices == [("pass", "everyone passed")]


def test_a_field_of_another_kind_is_a_programming_error():
    with pytest.raises(TypeError, match=r"GameForm\.points is IntegerField, not ChoiceField"):
        field_of(GameForm(), "points", forms.ChoiceField)
