"""The entry page's fields and data written out directly (entry/templatetags/entry_fields.py)."""

import pytest
from django.utils.html import json_script

from entry.templatetags.entry_fields import entry_json

HOSTILE = {
    "forms": {"0": '<form action="/r/x/">\x1ename0\x1e</form></script><!--'},
    "words": {"name": "Anna & O'Brien <b>", "quote": 'say "hi"', "lv": "Ērika ķēniņš"},
    "numbers": [1, -2.5, None, True],
}


@pytest.mark.parametrize("value", [HOSTILE, {}, [], "</script>", 12])
def test_the_phones_data_is_djangos_json_script_to_the_byte(value):
    assert entry_json(value, "table-phone") == json_script(value, "table-phone")
