"""Namesakes told apart (tournaments/namesakes.py): players of one name get a mark (the licence,
else the number in the register), and names, clubs and licences that read alike are one."""

from __future__ import annotations

import pytest

from tests.factories import make_player
from tournaments.namesakes import club_key, licence_key, name_key, namesake_marks

pytestmark = pytest.mark.django_db


def test_only_players_who_share_a_name_get_a_mark():
    licensed = make_player(full_name="Jānis Bērziņš", licence_number="LV-7")
    unlicensed = make_player(full_name="Janis Berzins")
    alone = make_player(full_name="Anna Kalniņa", licence_number="LV-8")
    marks = namesake_marks([licensed, unlicensed, alone])
    assert marks == {licensed.pk: "LV-7", unlicensed.pk: f"#{unlicensed.pk}"}


def test_a_list_of_different_names_has_no_marks():
    assert namesake_marks([make_player(full_name="Anna"), make_player(full_name="Ilze")]) == {}


def test_a_name_and_club_read_alike_whatever_the_case_and_marks():
    assert name_key("Jānis Bērziņš", "Rīgas Zoles klubs") == name_key(
        "janis berzins", "rigas zoles klubs"
    )
    assert name_key("Jānis Bērziņš", "Rīgas") != name_key("Jānis Bērziņš", "Cēsis")


def test_a_cyrillic_look_alike_letter_reads_as_the_latin_one():
    assert club_key("Rīgаs") == club_key("Rīgas")  # the first "а" is Cyrillic


def test_licences_compare_without_case_or_hidden_letters():
    assert licence_key("lv-1") == licence_key("LV-1") == licence_key("LV-\u200b1")
    assert licence_key("LV-1") != licence_key("LV-2")
