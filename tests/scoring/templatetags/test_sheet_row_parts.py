"""The parts of a template written once for the server and the phone
(scoring.templatetags.sheet_row_parts): the server decides them as `if` does, the phone's copy
has each marked for its script to decide."""

from django.template import Context, Engine

from scoring.templatetags.sheet_row_parts import marked_from_string

SOURCE = (
    "{% load sheet_row_parts %}<p{% part 'phone' %} data-phone{% else %} id='x'{% endpart %}>"
    "{% part 'many' count > 1 %}×{{ count }}{% else %}one{% endpart %}"
    "{% part 'late' late %} late{% endpart %}"
    "{% each 'names' %}{% for name in names %}[{{ name }}]{% endfor %}{% endeach %}"
    "{% slot 'words' %}{{ count }} words{% endslot %}</p>"
)


def on_the_server(**context):
    return Engine.get_default().from_string(SOURCE).render(Context(context))


def test_the_server_decides_each_part_as_if_does():
    assert on_the_server(count=3, late=True, names=["a", "b"]) == (
        "<p id='x'>×3 late[a][b]3 words</p>"
    )
    assert on_the_server(count=1, late=False, names=[]) == "<p id='x'>one1 words</p>"


def test_a_part_without_a_condition_is_the_phones_only():
    assert "data-phone" not in on_the_server(count=1, late=False, names=[])


def test_the_phones_copy_marks_every_part_its_else_each_list_and_each_slot():
    marked = marked_from_string(SOURCE).render(
        Context({"count": "\x1ecount\x1e", "names": ["\x1ename\x1e"]})
    )
    assert marked == (
        "<p\x1d#phone\x1d data-phone\x1d/phone\x1d\x1d^phone\x1d id='x'\x1d/phone\x1d>"
        "\x1d#many\x1d×\x1ecount\x1e\x1d/many\x1d\x1d^many\x1done\x1d/many\x1d"
        "\x1d#late\x1d late\x1d/late\x1d"
        "\x1d#names\x1d[\x1ename\x1e]\x1d/names\x1d"
        "\x1ewords\x1e</p>"
    )


def test_marking_one_copy_leaves_the_servers_template_as_it_was():
    marked_from_string(SOURCE)
    assert on_the_server(count=2, late=False, names=["a"]) == "<p id='x'>×2[a]2 words</p>"
