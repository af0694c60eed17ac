"""What the apps built on scoring do when scoring writes, without scoring importing them.

Scoring sits below the ranking: the ranking reads confirmed tables, so scoring may not call it.
Scoring announces its writes here as Django signals; an app above connects its receivers once,
in its `AppConfig.ready` (ranking/apps.py rates the players of a confirmed table). Scoring sends
each signal with `send` inside the same transaction as its own write, not on commit: a receiver
that fails raises through the write and undoes it, so nobody sees one without the other.
Receivers take keyword arguments (Django adds `signal` and `sender`).
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent by scoring.services.table_confirm with `table_result=` (sender: TableResult), after the
# table's result and its seats' results are written.
table_confirmed = Signal()

# Sent by scoring.services.table_unlock with `table_result=` (sender: TableResult), just before
# the confirmed table's result is deleted.
table_unlocked = Signal()

# Sent by scoring.services.round_close with `round_=` (sender: Round), after the round is marked
# closed.
round_closed = Signal()

# Sent by the archive's import with `tournament=` (sender: Tournament), after a whole tournament
# is written: its tables confirmed and its rounds closed without any of the signals above.
tournament_imported = Signal()
