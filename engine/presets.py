"""The rule-set presets an organiser picks with one click (docs/rules.md, "Presets").

A preset fills every option of a tournament's rule set; each option stays editable afterwards.
`classic` is the seeds' rules (the defaults of `engine.rules.Rules`); `lzf` and `lzf-rondo` are
the Latvian federation's classic and elite formats: tables of 4 seated by rank, 28 deals (27 at
the tables of 3 the field needs, so that everyone at every table deals equally often)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import AllPass, GaldinsScoring, PersonalPulePayment, Rules


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    rules: Rules
    table_size: int  # 3: tables of 3 (4 where needed); 4: tables of 4 (3 where needed)
    deals_per_round: int
    later_rounds_seating: str  # an `engine.seating` mode
    # The deals at a table of that size (None: the deals per round); a multiple of the size.
    deals_at_three: int | None = None
    deals_at_four: int | None = None
    place_points_three: str = "6,4,2"
    place_points_four: str = "6,4,2,0"
    first_round_seating: str = "random"


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            name="classic",
            rules=Rules(),
            table_size=3,
            deals_per_round=24,
            later_rounds_seating="swiss",
        ),
        Preset(
            name="lzf",
            rules=Rules(personal_pule_payment=PersonalPulePayment.N, four_table_pass_pules=2),
            table_size=4,
            deals_per_round=28,
            deals_at_three=27,
            deals_at_four=28,
            later_rounds_seating="ranked",
            place_points_four="6,4,2,0; 1-4=2",
        ),
        Preset(
            name="lzf-rondo",
            rules=Rules(
                all_pass=AllPass.GALDINS_PULE,
                galdins_scoring=GaldinsScoring.RONDO,
                small_zole=True,
                small_zole_loss=6,
                personal_pule_payment=PersonalPulePayment.N,
                four_table_pass_pules=2,
            ),
            table_size=4,
            deals_per_round=28,
            deals_at_three=27,
            deals_at_four=28,
            later_rounds_seating="ranked",
            place_points_four="6,4,2,0; 1-4=2",
        ),
    )
}
