"""The entry page's fields, written out directly: the referee's page is rendered on every deal.

Django renders a form field through its widget templates: a radio group of three players goes
through a dozen template renders, the sheet's forms through a hundred, half the CPU of the
referee's page. `{{ form.game|entry_field }}` writes the same markup in Python: the same names,
ids, labels, values, `autocomplete="off"`, `required`, `min`/`max`, and, after a refusal,
`aria-invalid`/`aria-describedby` and the field's error list (rendered by Django: it is rare).
A widget this module does not know is left to Django.
"""

from __future__ import annotations

from django import forms, template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _attrs(attrs: dict[str, object]) -> str:
    """HTML attributes as Django's widgets write them: True alone, False and None left out."""
    parts = []
    for name, value in attrs.items():
        if value is True:
            parts.append(f" {name}")
        elif value is not False and value is not None:
            parts.append(f' {name}="{conditional_escape(value)}"')
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
            f"{conditional_escape(label)}</label></div>"
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
