"""What the apps built on sign-ups do when one changes, without this app importing them (the
notices app mails the player). Sent with `send` inside the write's transaction; receivers
record what they will do and never wait for a network. Sender: SignUp.
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent by signups.services.signup_create with `signup=`: on the list or the waiting list.
signup_created = Signal()

# Sent by signups.services.signup_accept and signups_accept with `signups=` (a list).
signups_accepted = Signal()

# Sent by signups.services.signup_move with `signup=` (its status is the list it moved to).
signup_moved = Signal()

# Sent by signups.services.signup_refuse with `signup=`.
signup_refused = Signal()
