"""The rule set a round is played with: the engine's rule options, the deals per round, the
table size and the place points.

A tournament's options say what the next round will be played with; a round fixes them when it
is published (`Round.rule_set`), so a change of the options applies from the next round and
every sheet, document, archive and re-score of a round reads the rules it was played with."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from core.model_columns import concrete_field
from engine import AbsentRule, PlaceScheme, Rules
from engine.presets import PRESETS
from engine.rules import Game
from tournaments.models import Round, Tournament

# The tournament fields that are the engine's rule options (same names as `engine.Rules`).
RULE_OPTIONS = (
    "all_pass",
    "galdins_scoring",
    "small_zole",
    "small_zole_loss",
    "personal_pule_payment",
    "four_table_pass_pules",
)
# Everything a round fixes when it is published.
RULE_SET_FIELDS = (
    *RULE_OPTIONS,
    "deals_per_round",
    "deals_at_three",
    "deals_at_four",
    "table_size",
    "place_points_three",
    "place_points_four",
)
# Options a round published before they existed did not store: such a round plays without them
# (None), never with what the tournament says now.
LATER_OPTIONS = ("deals_at_three", "deals_at_four")


@dataclass(frozen=True)
class RuleSet:
    rules: Rules
    deals_per_round: int
    table_size: int  # 3 or 4: the tables the seating builds (the other size only where needed)
    place_scheme: PlaceScheme
    deals_at_three: int | None = None  # None: the deals per round
    deals_at_four: int | None = None

    def deals_at(self, size: int) -> int:
        """The deals a table of `size` plays in the round."""
        count = self.deals_at_four if size == 4 else self.deals_at_three
        return self.deals_per_round if count is None else count


def rule_set_options(tournament: Tournament) -> dict[str, Any]:
    """The tournament's options as a round stores them (plain JSON values)."""
    return {name: getattr(tournament, name) for name in RULE_SET_FIELDS}


def rule_set_from_options(options: Mapping[str, Any]) -> RuleSet:
    # Every sheet, deal and page reads its round's rule set, and parsing the place points each
    # time showed in a deal's cost: a rule set is immutable, so one per set of options is kept.
    return _rule_set(tuple(sorted((name, options.get(name)) for name in RULE_SET_FIELDS)))


@lru_cache(maxsize=256)
def _rule_set(items: tuple[tuple[str, Any], ...]) -> RuleSet:
    options = dict(items)
    return RuleSet(
        rules=Rules(**{name: options[name] for name in RULE_OPTIONS}),
        deals_per_round=int(options["deals_per_round"]),
        deals_at_three=_count(options["deals_at_three"]),
        deals_at_four=_count(options["deals_at_four"]),
        table_size=int(options["table_size"]),
        place_scheme=PlaceScheme.from_text(
            options["place_points_three"], options["place_points_four"]
        ),
    )


def _count(value: Any) -> int | None:
    return None if value is None else int(value)


def tournament_rule_set(tournament: Tournament) -> RuleSet:
    """What the next round will be played with."""
    return rule_set_from_options(rule_set_options(tournament))


def round_options(round_: Round) -> dict[str, Any]:
    """The options a round is played with: fixed when it was published; a draft follows the
    tournament. An option the round did not store (an older archive) is the tournament's."""
    stored = round_.rule_set or {}
    if all(name in stored for name in RULE_SET_FIELDS if name not in LATER_OPTIONS):
        return {**dict.fromkeys(LATER_OPTIONS), **stored}
    return {**rule_set_options(round_.tournament), **stored}


def round_rule_set(round_: Round) -> RuleSet:
    return rule_set_from_options(round_options(round_))


def rule_set_words(
    options: Mapping[str, Any], *, table_size: int, place_points: bool = True
) -> tuple[str, ...]:
    """A round's rules in words for a table of `table_size`, one phrase per option that matters
    there ("When everyone passes: a common pule is written"), in the active language: each
    option as the settings form labels it and its choice. Whether galdiņš and pules are
    played there is the engine's answer."""
    rules = rule_set_from_options(options).rules

    def said(name: str) -> str:
        field = concrete_field(Tournament, name)
        value = options[name]
        return f"{capfirst(field.verbose_name)}: {dict(field.flatchoices).get(value, value)}"

    phrases = [said("all_pass")]
    if rules.allows(Game.GALDINS):
        phrases.append(said("galdins_scoring"))
    if options["small_zole"]:
        phrases.append(str(capfirst(Tournament._meta.get_field("small_zole").verbose_name)))
        phrases.append(said("small_zole_loss"))
    else:
        phrases.append(_("Mazā zole is not played"))
    if rules.pules:
        phrases.append(said("personal_pule_payment"))
        if table_size == 4:
            phrases.append(said("four_table_pass_pules"))
    if place_points:
        phrases.append(said("place_points_four" if table_size == 4 else "place_points_three"))
    return tuple(phrases)


def standings_order(tournament: Tournament) -> list[str]:
    """The metrics the tournament's standings rank by, in order (`engine.standings.Metric`)."""
    return [metric.strip() for metric in tournament.standings_order.split(",") if metric.strip()]


def absent_rule(tournament: Tournament) -> AbsentRule:
    """Where the tournament's standings (and its seating by rank) put players who missed rounds."""
    return AbsentRule(tournament.absent_players)


def preset_options(name: str) -> dict[str, Any]:
    """The tournament options a rule-set preset (`engine.presets`) fills in."""
    preset = PRESETS[name]
    return {
        # Every option, read from the preset's `Rules` itself: none is left out whichever
        # options the contract's JSON (`engine.json_contract.rules_to_json`) writes.
        **{option: getattr(preset.rules, option) for option in RULE_OPTIONS},
        "deals_per_round": preset.deals_per_round,
        "deals_at_three": preset.deals_at_three,
        "deals_at_four": preset.deals_at_four,
        "table_size": preset.table_size,
        "place_points_three": preset.place_points_three,
        "place_points_four": preset.place_points_four,
        "first_round_seating": preset.first_round_seating,
        "later_rounds_seating": preset.later_rounds_seating,
    }
