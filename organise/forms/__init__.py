"""The organiser's forms, one module per concern as the views are: `tournament` (a tournament and
its options), `register` (players, clubs, an import), `registrations`, `rounds` (check-in,
seating, a swap), `fees`, `signups`, `seasons` (the ranking's seasons and a final's
invitations), `people` (roles, table referees, the audit log's filter), and `fields` (what they
share). Each checks its input with the rule that lives in the engine."""

from organise.forms.fees import (
    MAX_FEE,
    FeeCategoryForm,
    FeeCategoryFormSet,
    FeeCategorySetForm,
    FeesPaidForm,
)
from organise.forms.fields import IdChoiceField, RegistrationChoiceField, latvian_choices
from organise.forms.register import (
    ClubForm,
    PlayerForm,
    PlayerImportForm,
)
from organise.forms.registrations import (
    RegisterPlayersForm,
    RegistrationForm,
    WithdrawForm,
)
from organise.forms.rounds import (
    CheckInForm,
    GenerateSeatingForm,
    SwapForm,
)
from organise.forms.signups import (
    SIGNUP_ACTIONS,
    SignUpActionForm,
    SignUpsAcceptForm,
)
from organise.forms.tournament import (
    PRESET_CHOICES,
    TournamentForm,
)

__all__ = [
    "MAX_FEE",
    "PRESET_CHOICES",
    "SIGNUP_ACTIONS",
    "CheckInForm",
    "ClubForm",
    "FeeCategoryForm",
    "FeeCategoryFormSet",
    "FeeCategorySetForm",
    "FeesPaidForm",
    "GenerateSeatingForm",
    "IdChoiceField",
    "PlayerForm",
    "PlayerImportForm",
    "RegisterPlayersForm",
    "RegistrationChoiceField",
    "RegistrationForm",
    "SignUpActionForm",
    "SignUpsAcceptForm",
    "SwapForm",
    "TournamentForm",
    "WithdrawForm",
    "latvian_choices",
]
