"""A stored choice reads as its label, and a value no longer among the choices as stored."""

from django.utils import translation

from core.choices import choice_label
from tournaments.models import Level, Role


def test_a_stored_choice_reads_as_its_label_in_the_readers_language():
    with translation.override("en"):
        assert choice_label(Role, "chief_referee") == "chief referee"
    with translation.override("lv"):
        assert choice_label(Role, "chief_referee") == str(Role.CHIEF_REFEREE.label)
        assert choice_label(Role, "chief_referee") != "chief referee"


def test_a_value_that_is_no_choice_reads_as_it_is_stored():
    assert choice_label(Level, "interplanetary") == "interplanetary"
    assert choice_label(Level, 3) == "3"
