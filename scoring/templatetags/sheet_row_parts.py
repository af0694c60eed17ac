"""The parts of a sheet's row (scoring/_sheet_row.html), which the same file writes twice: on the
server, decided; for the phone, marked, so that its script can decide them
(static/js/table/fill-template.js).

- `{% part "name" condition %}…{% else %}…{% endpart %}`: a part the row may have. The server
  renders it as `{% if condition %}…{% else %}…{% endif %}`; without a condition the part is
  the phone's only, and the server renders its `else` (or nothing).
- `{% each "name" %}{% for … %}…{% endfor %}{% endeach %}`: a list (a row's cells); the phone
  repeats the body for each item.
- `{% slot "name" %}…{% endslot %}`: what the server writes (a phrase in the plural of a count),
  where the phone writes its own value.

The server's template compiles these to what it had before (an `if`, the loop, the body): a
page renders its rows as fast as ever. `marked_template` compiles the same file with every part
marked instead, for the phone: `\\x1d#name\\x1d…\\x1d/name\\x1d` a part (`^` instead of `#`: its
`else`), `\\x1ename\\x1e` a value (entry.phone.placeholder, as in the phone's forms). No template,
name or value holds either separator.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import cache

from django import template
from django.template import Context, Engine, Node, NodeList, Origin, Template
from django.template.base import Parser, Token
from django.template.defaulttags import IfNode, TemplateIfParser, TemplateLiteral

register = template.Library()

PART_MARK = "\x1d"
VALUE_MARK = "\x1e"
# True while `marked_template` compiles: the tags below then mark their parts.
_marking: ContextVar[bool] = ContextVar("marking_parts", default=False)


def part_open(name: str, *, otherwise: bool = False) -> str:
    return f"{PART_MARK}{'^' if otherwise else '#'}{name}{PART_MARK}"


def part_close(name: str) -> str:
    return f"{PART_MARK}/{name}{PART_MARK}"


def value_mark(name: str) -> str:
    return f"{VALUE_MARK}{name}{VALUE_MARK}"


def _name(token: Token, bits: list[str]) -> str:
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(f"{bits[0]} takes a quoted name first: {token.contents}")
    return bits[1][1:-1]


class MarkedNode(Node):
    """A part (`#`), its `else` (`^`) or a list, marked for the phone."""

    child_nodelists = ("nodelist", "otherwise")

    def __init__(self, name: str, nodelist: NodeList, otherwise: NodeList | None = None) -> None:
        self.name = name
        self.nodelist = nodelist
        self.otherwise = otherwise

    def render(self, context: Context) -> str:
        marked = part_open(self.name) + self.nodelist.render(context) + part_close(self.name)
        if self.otherwise is not None:
            marked += (
                part_open(self.name, otherwise=True)
                + self.otherwise.render(context)
                + part_close(self.name)
            )
        return marked


class BodyNode(Node):
    """A list's body on the server: its loop, as written."""

    child_nodelists = ("nodelist",)

    def __init__(self, nodelist: NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        return self.nodelist.render(context)


class ValueNode(Node):
    """A slot, marked for the phone: the name of the value it writes there."""

    def __init__(self, name: str) -> None:
        self.name = name

    def render(self, context: Context) -> str:
        return value_mark(self.name)


def _as_written(nodelist: NodeList) -> Node:
    """The body as the server renders it: its one node itself (a loop, a phrase), else a node
    that renders them all."""
    return nodelist[0] if len(nodelist) == 1 else BodyNode(nodelist)


class NoNode(Node):
    def render(self, context: Context) -> str:
        return ""


@register.tag
def part(parser: Parser, token: Token) -> Node:
    bits = token.split_contents()
    name = _name(token, bits)
    condition = TemplateIfParser(parser, bits[2:]).parse() if len(bits) > 2 else None
    nodelist = parser.parse(("else", "endpart"))
    otherwise = None
    if parser.next_token().contents == "else":
        otherwise = parser.parse(("endpart",))
        parser.delete_first_token()
    if _marking.get():
        return MarkedNode(name, nodelist, otherwise)
    if condition is None:  # the phone's only
        return _as_written(otherwise) if otherwise is not None else NoNode()
    branches: list[tuple[TemplateLiteral | None, NodeList]] = [(condition, nodelist)]
    if otherwise is not None:
        branches.append((None, otherwise))
    return IfNode(branches)


@register.tag
def each(parser: Parser, token: Token) -> Node:
    name = _name(token, token.split_contents())
    nodelist = parser.parse(("endeach",))
    parser.delete_first_token()
    return MarkedNode(name, nodelist) if _marking.get() else _as_written(nodelist)


@register.tag
def slot(parser: Parser, token: Token) -> Node:
    name = _name(token, token.split_contents())
    nodelist = parser.parse(("endslot",))
    parser.delete_first_token()
    return ValueNode(name) if _marking.get() else _as_written(nodelist)


def marked_from_string(
    source: str, *, origin: Origin | None = None, name: str | None = None
) -> Template:
    """The template `source` compiled with its parts marked."""
    token = _marking.set(True)
    try:
        return Template(source, origin=origin, name=name, engine=Engine.get_default())
    finally:
        _marking.reset(token)


@cache
def marked_template(name: str) -> Template:
    """The template file `name` compiled with its parts marked (kept: it is the same file for
    the life of the process)."""
    found, origin = Engine.get_default().find_template(name)
    return marked_from_string(found.source, origin=origin, name=name)
