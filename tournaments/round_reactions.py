"""What the apps built on the tournament's core do when a round moves on, without the core
importing them.

The core sits below the apps that tell players what happens (notices): it announces its
writes here as Django signals, and an app above connects its receivers in its
`AppConfig.ready`. Each signal is sent with `send` inside the same transaction as the write:
a receiver records what it will do in that transaction (never waits for a network), and a
receiver that fails undoes the write. Receivers take keyword arguments (Django adds `signal`
and `sender`). Sender: Round.
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent by tournaments.services.round_create with `round_=`: the new round's check-in is open.
round_created = Signal()

# Sent by tournaments.services.round_publish with `round_=`: its seating is published.
round_published = Signal()

# Sent by tournaments.services.round_clock_start with `round_=`: the round's clock runs.
round_clock_started = Signal()

# Sent by tournaments.services.round_time_call with `round_=`: the chief referee called time.
round_time_called = Signal()
