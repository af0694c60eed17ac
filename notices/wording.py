"""The messages in words: what a player's phone shows for each notice, and the mail a player
who signed up online receives, in his own language. Every figure comes from the stored
results (notices.selectors); this module only says them."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from notices.models import Notice, NoticeKind
from notices.selectors import Placing, SeatFacts, TableLine
from scoring.selectors.public_results import points_text
from signups.models import SignUp
from tournaments.round_clock import round_clock


def player_page(slug: str, token: str) -> str:
    return reverse("public:my_check_in", args=[slug, token])


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points).replace("-", "−")


def placing_text(placing: Placing | None) -> str:
    if placing is None:
        return ""
    return _("Your place: %(rank)s of %(of)d.") % {"rank": placing.rank_label, "of": placing.of}


def push_message(
    notice: Notice,
    *,
    language: str,
    token: str,
    seat: SeatFacts | None = None,
    line: TableLine | None = None,
    placing: Placing | None = None,
    prize: str = "",
) -> dict[str, str] | None:
    """What one player's phone shows for the notice: its title, text, the page a tap opens,
    and a tag (a later message of the same tag replaces it). None: nothing to tell him (no
    seat, no result)."""
    tournament = notice.tournament
    number = notice.round.number if notice.round is not None else 0
    url = player_page(tournament.slug, token)
    with translation.override(language):
        if notice.kind == NoticeKind.CHECK_IN_OPENED:
            body = _("Check-in for round %(number)d is open: tap to check in.") % {"number": number}
        elif notice.kind == NoticeKind.SEATING_PUBLISHED:
            if seat is None:
                return None
            body = _("Round %(number)d: table %(table)d, seat %(seat)d.") % {
                "number": number,
                "table": seat.table_number,
                "seat": seat.position,
            }
            if seat.others:
                body += " " + _("With %(names)s.") % {"names": ", ".join(seat.others)}
        elif notice.kind == NoticeKind.ROUND_STARTED and notice.round is not None:
            clock = round_clock(notice.round)
            deadline = clock.deadline
            body = _("Round %(number)d has started: %(minutes)d minutes, until %(time)s.") % {
                "number": number,
                "minutes": clock.limit_minutes or 0,
                "time": timezone.localtime(deadline).strftime("%H:%M") if deadline else "",
            }
        elif notice.kind == NoticeKind.TIME_CALLED:
            body = _("Time is called in round %(number)d: finish the deal under way.") % {
                "number": number
            }
        elif notice.kind == NoticeKind.TABLE_CONFIRMED:
            if line is None or notice.table is None:
                return None
            body = _(
                "Round %(number)d, table %(table)d is confirmed: %(points)s points, "
                "place %(place)d at the table, %(place_points)s place points."
            ) % {
                "number": number,
                "table": notice.table.number,
                "points": signed(line.game_points),
                "place": line.place,
                "place_points": points_text(line.place_points),
            }
            body = " ".join(part for part in (body, placing_text(placing)) if part)
        elif notice.kind == NoticeKind.ROUND_CLOSED:
            body = " ".join(
                part
                for part in (
                    _("Round %(number)d is closed.") % {"number": number},
                    placing_text(placing),
                )
                if part
            )
        elif notice.kind == NoticeKind.FINAL_STANDINGS:
            body = _("The final standings are out.")
            if placing is not None:
                body = _("Final standings: place %(rank)s of %(of)d.") % {
                    "rank": placing.rank_label,
                    "of": placing.of,
                }
            if prize:
                body += " " + _("Your prize: %(amount)s.") % {"amount": prize}
        elif notice.kind == NoticeKind.ANNOUNCEMENT:
            body = notice.text
        else:
            return None
    return {
        "title": tournament.name,
        "body": body,
        "url": url,
        "tag": f"{tournament.slug}:{notice.kind}",
    }


def signup_mail(notice: Notice, *, signup: SignUp, number: int | None) -> dict[str, str]:
    """The mail to a player who signed up online: its subject and text, in the language he
    signed up in. `number`: his place on the list he is on."""
    tournament = notice.tournament
    with translation.override(signup.language):
        names = {
            "name": signup.full_name,
            "tournament": tournament.name,
            "date": formats.date_format(tournament.starts_on, "DATE_FORMAT"),
            "number": number or 0,
        }
        if notice.kind == NoticeKind.SIGNUP_LISTED:
            subject = _("%(tournament)s: you are on the list of players") % names
            text = (
                _(
                    "You signed up for %(tournament)s (%(date)s). You are number %(number)d on the "
                    "list of players. The organiser accepts the list before the tournament: you "
                    "will hear from us then."
                )
                % names
            )
        elif notice.kind == NoticeKind.SIGNUP_WAITING:
            subject = _("%(tournament)s: you are on the waiting list") % names
            text = (
                _(
                    "You signed up for %(tournament)s (%(date)s). The places are taken: you are "
                    "number %(number)d on the waiting list. If a place frees, the organiser moves "
                    "you up and you will hear from us."
                )
                % names
            )
        elif notice.kind == NoticeKind.SIGNUP_MOVED_UP:
            subject = _("%(tournament)s: you moved up from the waiting list") % names
            text = (
                _(
                    "A place is free: you moved up from the waiting list of %(tournament)s "
                    "(%(date)s) and are number %(number)d on the list of players."
                )
                % names
            )
        elif notice.kind == NoticeKind.SIGNUP_ACCEPTED:
            subject = _("%(tournament)s: you are registered") % names
            text = (
                _(
                    "The organiser accepted your sign-up: you are registered for %(tournament)s "
                    "(%(date)s). See you at the tables!"
                )
                % names
            )
            registration = signup.registration
            if registration is not None and settings.SITE_URL:
                text += (
                    "\n\n"
                    + _(
                        "Your own page (keep its address to yourself): your table and seat each "
                        "round, your results and your place. It can tell your phone when your "
                        "table is ready:"
                    )
                    + "\n"
                    + settings.SITE_URL
                    + player_page(tournament.slug, registration.check_in_token)
                )
        else:
            subject = _("%(tournament)s: your sign-up was not accepted") % names
            text = (
                _(
                    "The organiser did not accept your sign-up for %(tournament)s (%(date)s). Ask "
                    "the organiser if you think this is a mistake."
                )
                % names
            )
        greeting = _("Hello, %(name)s!") % names
        closing = _("This message was sent because you signed up on the tournament's page.")
    return {"subject": subject, "body": f"{greeting}\n\n{text}\n\n-- \n{closing}\n"}
