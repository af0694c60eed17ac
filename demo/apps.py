"""The demo app: data made for trying the site, the benchmarks and the tests (sample clubs and
players, simulated tournaments, a season of synthetic results), never read by production code.
Registered with Django for its commands (`manage.py load_demo`, `simulate_tournament`)."""

from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "demo"
    verbose_name = "Demo data"
