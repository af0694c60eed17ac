"""The entry page's fields, written out directly: the referee's page is rendered on every deal.

Django renders a form field through its widget templates: a radio group of three players goes
through a dozen template renders, the sheet's forms through a hundred, half the CPU of the
referee's page. `{{ form.game|entry_field }}` writes the same markup in Python: the same names,
ids, labels, values, `autocomplete="off"`, `required`, `min`/`max`, and, after a refusal,
`aria-invalid`/`aria-describedby` and the field's error list (rendered by Django: it is rare).
A widget this module does not know is left to Django. The data the page hands the phone's
script is written out the same way (`entry_json`: Django's `json_script`, faster).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from django import forms, template
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _attrs(attrs: Mapping[str, object]) -> str:
    """HTML attributes as Django's widgets write them: True alone, False and None left out."""
    parts = []
    for name, value in attrs.items():
        if value is True:
            parts.append(f" {name}")
        elif value is not False and value is not None:
            # str() first, as escaping does (a safe string stays safe): the stubs take text only.
            parts.append(f' {name}="{conditional_escape(str(value))}"')
    return "".join(parts)


def _errors(bound: forms.BoundField) -> str:
    errors = bound.errors
    return str(errors) if errors else ""


def _input(bound: forms.BoundField, widget: forms.Widget, input_type: str) -> str:
    value = widget.format_value(bound.value())
    attrs = bound.build_widget_attrs(widget.attrs)
    if bound.auto_id:
        attrs["id"] = bound.auto_id
    value_attr = "" if value is None else f' value="{conditional_escape(value)}"'
    return (
        f'<input type="{input_type}" name="{conditional_escape(bound.html_name)}"{value_attr}'
        f"{_attrs(attrs)}>"
    )


def _radios(bound: forms.BoundField, widget: forms.RadioSelect) -> str:
    chosen = {str(value) for value in widget.format_value(bound.value())}
    attrs = bound.build_widget_attrs(widget.attrs)
    attrs.pop("id", None)
    group_id = bound.auto_id
    name = conditional_escape(bound.html_name)
    common = _attrs(attrs)
    buttons = []
    for index, (value, label) in enumerate(widget.choices):
        value = "" if value is None else str(value)
        button_id = f"{group_id}_{index}" if group_id else ""
        id_attr = f' id="{button_id}"' if button_id else ""
        for_attr = f' for="{button_id}"' if button_id else ""
        checked = " checked" if value in chosen else ""
        buttons.append(
            f'<div><label{for_attr}><input type="radio" name="{name}" '
            f'value="{conditional_escape(value)}"{common}{id_attr}{checked}> '
            f"{conditional_escape(str(label))}</label></div>"
        )
    group_attr = f' id="{group_id}"' if group_id else ""
    return f"<div{group_attr}>{''.join(buttons)}</div>"


@register.filter
def entry_field(bound: forms.BoundField) -> SafeString:
    """The field's input (or radio buttons) followed by its errors, if any."""
    widget = bound.field.widget
    if isinstance(widget, forms.RadioSelect):
        html = _radios(bound, widget)
    elif isinstance(widget, forms.HiddenInput):
        return mark_safe(_input(bound, widget, "hidden"))
    elif isinstance(widget, forms.NumberInput | forms.TextInput):
        html = _input(bound, widget, widget.input_type)
    else:
        return SafeString(str(bound) + _errors(bound))
    return mark_safe(html + _errors(bound))


# --- The phone's data -----------------------------------------------------------------------------

# What django.utils.html.json_script escapes, and how: the JSON is inert inside <script>.
JSON_ESCAPES = (("&", "\\u0026"), ("<", "\\u003C"), (">", "\\u003E"))


@register.filter(is_safe=True)
def entry_json(value: object, element_id: str) -> SafeString:
    """`json_script`'s <script type="application/json"> element, the same markup: Django's
    escapes the JSON by `str.translate`, 2.6 ms of CPU on the 44 kB the entry page hands the
    phone's script (its forms, words and messages), where `str.replace` takes 0.1 ms."""
    text = json.dumps(value, cls=DjangoJSONEncoder)
    for char, escaped in JSON_ESCAPES:
        text = text.replace(char, escaped)
    return format_html(
        '<script id="{}" type="application/json">{}</script>', element_id, mark_safe(text)
    )
