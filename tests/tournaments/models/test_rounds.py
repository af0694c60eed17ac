"""What a round is stored with: its check-in code, read aloud in a hall and typed on a phone,
and each table's private link."""

import pytest

from tests.factories import make_published_round, make_tournament
from tournaments.models import CHECK_IN_CODE_LENGTH, TableToken, new_check_in_code

pytestmark = pytest.mark.django_db

# Letters and digits one mistakes for another when heard or read on a screen.
CONFUSABLE = set("0O1I2Z5S8B")


def test_a_check_in_code_has_no_letter_to_mistake_for_another():
    codes = {new_check_in_code() for _ in range(500)}
    assert all(len(code) == CHECK_IN_CODE_LENGTH for code in codes)
    assert not CONFUSABLE & set("".join(codes))
    assert len(codes) > 490  # drawn at random, not from a short list


def test_every_round_and_every_table_link_gets_its_own_secret():
    tournament = make_tournament(table_size=3)
    first = make_published_round(tournament, players=9)
    tokens = list(TableToken.objects.filter(table__round=first).values_list("token", flat=True))
    assert len(tokens) == 3 == len(set(tokens))
    assert all(len(token) >= 40 for token in tokens)  # 32 random bytes, URL-safe
    assert first.check_in_code and len(first.check_in_code) == CHECK_IN_CODE_LENGTH
