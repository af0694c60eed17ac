"""What the scoring services' tests share: a referee writing at the table, a won Lielais, and
a deal recorded or a whole round played with them."""

import itertools

from engine import Play, dealer_for
from engine.rules import Game
from scoring import services
from scoring.services import Writer
from tests.factories import seat_keys

keys = (f"key-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.7")


def lielais(declarer, points=75, tricks=5):
    return Play(Game.LIELAIS, declarer, tricks=tricks, points=points)


def record(table, entry, position, writer=REFEREE):
    return services.deal_record(
        table=table, entry=entry, position=position, client_key=next(keys), writer=writer
    )


def play_full_round(table, deals=24):
    """Every deal a won Lielais of a player who is not dealing."""
    players = seat_keys(table)
    for index in range(deals):
        dealer = dealer_for(players, players[0], index)
        declarer = next(p for p in players if p != dealer)
        record(table, lielais(declarer), index + 1)
