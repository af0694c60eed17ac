"""A field of a model's own table, looked up for the SQL written by hand."""

from __future__ import annotations

import pytest

from core.model_columns import concrete_field
from scoring.models import DealResult
from tournaments.models import Table


def test_a_field_is_found_by_its_name_or_its_attname():
    assert concrete_field(DealResult, "player").column == "player_id"
    assert concrete_field(DealResult, "player_id").column == "player_id"


def test_the_other_side_of_a_relation_has_no_column():
    with pytest.raises(TypeError, match="no column"):
        concrete_field(Table, "deal_results")
