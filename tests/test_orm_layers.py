"""No ORM path climbs a layer: code of a lower app never reaches a higher app's model through a
reverse relation (`registration.seat_results`, `filter(seat_results__round_number=…)`), a
dependency import-linter cannot see since nothing is imported."""

import ast
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.db.models import ForeignObjectRel

ROOT = Path(__file__).resolve().parent.parent
LOOKUP = re.compile(r"-?[a-z_][a-z0-9_]*")


def layer_numbers() -> dict[str, int]:
    """Each app of the layers contract by its layer: 0 the top one (siblings share a number)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(
        each for each in config["tool"]["importlinter"]["contracts"] if each["id"] == "layers"
    )
    return {
        app.strip(): number
        for number, layer in enumerate(contract["layers"])
        for app in layer.split("|")
    }


def upward_names(app: str, layers: Mapping[str, int]) -> dict[str, str]:
    """The names by which code of `app` would reach the model of a higher or sibling app
    without importing it: the reverse relations (lookup and attribute names) that app's
    foreign keys give the models they point to, each with the model it reaches. A name that
    `app` or a lower app gives a relation too (`seats`: a table's and a table result's) says
    nothing and is left out."""
    upward: dict[str, str] = {}
    own: set[str] = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if not isinstance(field, ForeignObjectRel) or field.hidden:
                continue
            source = field.related_model._meta.app_label
            names = {field.name, field.get_accessor_name()}
            if source == app or layers.get(source, len(layers)) > layers[app]:
                own |= names
            else:
                upward |= dict.fromkeys(names, field.related_model._meta.label)
    return {name: reached for name, reached in upward.items() if name not in own}


@dataclass(frozen=True)
class Climb:
    line: int
    name: str
    reached: str


# The calls whose words are lookups: a queryset's methods, Q, F, the aggregates, Prefetch.
QUERY_CALLS = frozenset(
    {
        "aggregate",
        "annotate",
        "Avg",
        "Count",
        "create",
        "defer",
        "exclude",
        "F",
        "filter",
        "get",
        "get_or_create",
        "Max",
        "Min",
        "only",
        "order_by",
        "OuterRef",
        "Prefetch",
        "prefetch_related",
        "Q",
        "select_related",
        "Sum",
        "update",
        "update_or_create",
        "values",
        "values_list",
    }
)


def lookup_steps(node: ast.AST) -> Iterator[tuple[int, str]]:
    """The steps of the lookups in a piece of code: strings and keywords of the query calls,
    any string with a `__` path, and attributes (`registration.seat_results`)."""
    if isinstance(node, ast.Call):
        callee = node.func.attr if isinstance(node.func, ast.Attribute) else None
        callee = node.func.id if isinstance(node.func, ast.Name) else callee
        if callee in QUERY_CALLS:
            for argument in node.args:
                # A path with `__` is a constant of its own, below.
                if (
                    isinstance(argument, ast.Constant)
                    and isinstance(argument.value, str)
                    and "__" not in argument.value
                ):
                    yield from path_steps(argument.lineno, argument.value)
            for keyword in node.keywords:
                if keyword.arg:
                    yield from path_steps(keyword.value.lineno, keyword.arg)
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "__" in node.value:
        yield from path_steps(node.lineno, node.value)
    elif isinstance(node, ast.Attribute):
        yield node.lineno, node.attr


def path_steps(line: int, text: str) -> Iterator[tuple[int, str]]:
    if LOOKUP.fullmatch(text):
        for step in text.lstrip("-").split("__"):
            yield line, step


def climbs(source: str, names: Mapping[str, str]) -> Iterator[Climb]:
    """Where the source takes one of `names` as a step of a lookup or an attribute."""
    for node in ast.walk(ast.parse(source)):
        for line, step in lookup_steps(node):
            if step in names:
                yield Climb(line=line, name=step, reached=names[step])


def checked_apps(layers: Mapping[str, int]) -> list[str]:
    """The apps of the layers with Django at hand: the pure ones (the engine) have no ORM, and
    their own words (`tables`, `players`) are no lookups."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    pure = next(each for each in contracts if each["id"] == "engine-pure")["source_modules"]
    return [app for app in layers if app not in pure]


def test_no_code_reaches_a_higher_apps_model_through_the_orm():
    layers = layer_numbers()
    found = []
    for app in checked_apps(layers):
        names = upward_names(app, layers)
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            found += [
                f"{path.relative_to(ROOT)}:{climb.line}: {climb.name} reaches {climb.reached}"
                for climb in climbs(path.read_text(encoding="utf-8"), names)
            ]
    assert found == []


def test_a_lookup_through_a_higher_apps_relation_is_found():
    names = upward_names("tournaments", layer_numbers())
    source = "\n".join(
        (
            "rows = tournament.registrations.filter(seat_results__round_number__lt=2)",
            'rows.values_list("pk", "seat_results__game_points")',
            "results = registration.seat_results.all()",
            'tables = round_.tables.select_related("result")',
        )
    )
    assert sorted((climb.line, climb.name, climb.reached) for climb in climbs(source, names)) == [
        (1, "seat_results", "scoring.SeatResult"),
        (2, "seat_results", "scoring.SeatResult"),
        (3, "seat_results", "scoring.SeatResult"),
        (4, "result", "scoring.TableResult"),
    ]


def test_a_relation_of_the_app_or_below_is_no_climb():
    layers = layer_numbers()
    source = "\n".join(
        (
            'seats = Seat.objects.filter(table__round__number__lt=2).order_by("-table__number")',
            "seats = table.seats.all()",  # a table's seats, and a table result's seats too
        )
    )
    assert list(climbs(source, upward_names("tournaments", layers))) == []
    a_word = 'SIGNUPS = FailureLimit(scope="signup")'  # no lookup, though a relation's name
    assert list(climbs(a_word, upward_names("core", layers))) == []
    assert "seat_results" not in upward_names("scoring", layers)
