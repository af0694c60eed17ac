"""The sample register: demo clubs and players, with every Latvian diacritic, for trying the
site (`manage.py load_demo`, `make run`)."""

from django.db import transaction

from tournaments.models import Club, Player

# (club name, city)
DEMO_CLUBS: list[tuple[str, str]] = [
    ("Rīgas Zoles klubs", "Rīga"),
    ("Liepājas Dūzis", "Liepāja"),
    ("Daugavpils Kārtis", "Daugavpils"),
    ("Cēsu Pule", "Cēsis"),
]

# (full name, club name): three players per club, with every Latvian diacritic somewhere.
DEMO_PLAYERS: list[tuple[str, str]] = [
    ("Jānis Bērziņš", "Rīgas Zoles klubs"),
    ("Anna Ozoliņa", "Rīgas Zoles klubs"),
    ("Pēteris Kalniņš", "Rīgas Zoles klubs"),
    ("Līga Liepiņa", "Liepājas Dūzis"),
    ("Ģirts Šteins", "Liepājas Dūzis"),
    ("Ērika Žagare", "Liepājas Dūzis"),
    ("Kārlis Čakste", "Daugavpils Kārtis"),
    ("Ieva Ķikute", "Daugavpils Kārtis"),
    ("Ņikita Ļebedevs", "Daugavpils Kārtis"),
    ("Dace Krūmiņa", "Cēsu Pule"),
    ("Edgars Vītols", "Cēsu Pule"),
    ("Māra Zariņa", "Cēsu Pule"),
]


@transaction.atomic
def demo_load() -> dict[str, int]:
    """Create the demo clubs and players if missing; safe to run any number of times.

    Returns how many clubs and players this call created (zero on a repeat run).
    """
    clubs: dict[str, Club] = {}
    clubs_created = 0
    for name, city in DEMO_CLUBS:
        club, created = Club.objects.get_or_create(name=name, defaults={"city": city})
        clubs[name] = club
        clubs_created += int(created)

    players_created = 0
    for full_name, club_name in DEMO_PLAYERS:
        # Keyed on name and club: demo players have no licence number to identify them by.
        _player, created = Player.objects.get_or_create(full_name=full_name, club=clubs[club_name])
        players_created += int(created)

    return {"clubs": clubs_created, "players": players_created}
