"""A referee's phone at a table of four playing a whole round: the round's deals as the tests
enter them (each with one call into the page), how long to wait for the phone's queue, and the
sheet as the phone shows it, to be compared with the server's."""

from __future__ import annotations

DEALS = 28  # a table of four: each player deals 7 times

# A round that moves points every way and keeps pules open: lielais won and lost, zole won, a
# pass (everyone passes: a common pule is written), each by a different player in turn.
PLAN = (
    ("lielais", 75, 5),
    ("lielais", 40, 3),
    ("pass", None, None),
    ("lielais", 88, 6),
    ("zole", 61, 4),
    ("lielais", 31, 2),
    ("lielais", 91, 7),
)


def planned_deal(number: int) -> dict[str, object]:
    """Deal `number` of the round: the game, which of the players who may declare it declares
    (counted among them in seat order), the declarer's points and tricks."""
    game, points, tricks = PLAN[(number - 1) % len(PLAN)]
    return {
        "number": number,
        "game": game,
        "choice": number % 3,
        "points": points,
        "tricks": tricks,
    }


def planned_entry(number: int) -> tuple[str, str]:
    """Deal `number` as the server stores it: its kind and game."""
    game = planned_deal(number)["game"]
    return ("pass", "") if game == "pass" else ("play", game)


# The next deal's form filled in with one call: the game, the declarer (among the players the
# form offers, the dealer who sits out excepted), the figures. Returns the form.
FILL_DEAL = """
(deal) => {
  const forms = document.querySelectorAll("#entry-form form.entry-deal-form");
  const form = Array.from(forms).find(
    (candidate) => candidate.querySelector("input[name='action']").value === "deal"
  );
  if (!form) throw new Error("no form for the next deal");
  const out = form.querySelector("input[name='deal-sits_out']");
  form.querySelector(`input[name='deal-game'][value='${deal.game}']`).click();
  if (deal.points !== null) {
    const players = Array.from(form.querySelectorAll("input[name='deal-declarer']")).filter(
      (radio) => !radio.disabled && !(out && radio.value === out.value)
    );
    players[deal.choice % players.length].click();
    for (const [name, value] of [["points", deal.points], ["tricks", deal.tricks]]) {
      const field = form.querySelector(`input[name='deal-${name}']`);
      field.value = String(value);
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
  return form;
}
"""

# Once the phone's script is ready (section#entry-form data-queue), the form filled in, then a
# tap on Save; returns the position the form was for.
ENTER_DEAL = f"""
async (deal) => {{
  const ready = () => document.querySelector("#entry-form[data-queue]") !== null;
  for (let frame = 0; !ready() && frame < 600; frame++) {{
    await new Promise((resolve) => setTimeout(resolve, 25));
  }}
  const form = ({FILL_DEAL.strip()})(deal);
  const position = Number(form.querySelector("input[name='deal-position']").value);
  form.querySelector("button.entry-submit").click();
  return position;
}}
"""

# The rows the phone shows for its entries, its own (not yet on the server) included, but not
# the phone's version of a deal another device entered first (shown beside the server's).
ROWS_SHOWN = """
() => document.querySelectorAll(
  ".entry-sheet tbody tr.entry-row:not(.conflict), .entry-sheet tbody tr.on-phone:not(.conflict)"
).length
"""

# The entry at `position` is on the sheet and the form for the next one is in its place.
TAKEN = f"""
(position) => ({ROWS_SHOWN.strip()})() >= position
  && !Array.from(document.querySelectorAll("#entry-form input[name='deal-position']"))
    .some((field) => Number(field.value) <= position)
"""

# The sheet on screen: each row's number, game, every player's running total and score of the
# deal and the open common pules; then the settlement and the totals.
SHEET = """
() => {
  const text = (node) => (node ? node.textContent.trim() : null);
  const rows = Array.from(document.querySelectorAll(".entry-sheet tbody tr"))
    .filter((row) => !row.querySelector(".entry-empty"))
    .map((row) => ({
      number: text(row.querySelector("th.entry-no")),
      game: text(row.querySelector("td.entry-game .game")),
      cells: Array.from(row.querySelectorAll("td.entry-cell")).map((cell) => [
        text(cell.querySelector(".total")),
        text(cell.querySelector(".delta")),
      ]),
      pules: text(row.querySelector("td.entry-pules")),
      phone: row.classList.contains("on-phone"),
      refused: row.classList.contains("refused"),
      conflict: row.classList.contains("conflict"),
    }));
  const foot = (selector) =>
    Array.from(document.querySelectorAll(`.entry-sheet tfoot ${selector} td`))
      .map((cell) => cell.textContent.trim())
      .filter((value) => value !== "");
  return { rows: rows, settlement: foot("tr.entry-settlement"), totals: foot("tr.entry-totals") };
}
"""

# Nothing waits on the phone and nothing is on its way to the server.
QUEUE_IDLE = """
() => {
  const section = document.getElementById("entry-form");
  return section !== null && section.dataset.queue === "idle"
    && document.querySelectorAll(".entry-sheet tbody tr.on-phone:not(.refused)").length === 0;
}
"""


def opened(page) -> None:
    """The page's script has laid the phone's queue over the sheet (online or not)."""
    page.wait_for_selector("#entry-form[data-queue]", state="attached")


def enter_deal(page, number: int, **other) -> None:
    """Deal `number` entered and saved (as planned, or with `other` game, choice, points,
    tricks); returns once its row is on the sheet (the phone writes it at once, online or
    not)."""
    position = page.evaluate(ENTER_DEAL, {**planned_deal(number), **other})
    # One phone, no penalty pules: the deal's number is its position on the sheet. A form for
    # another position is one the phone should no longer show.
    assert position == number, f"deal {number} was entered on the form for position {position}"
    page.wait_for_function(TAKEN, arg=position)


def enter_deals(page, numbers) -> None:
    for number in numbers:
        enter_deal(page, number)


def wait_until_sent(page, timeout: float = 60_000) -> None:
    """Every entry of the phone reached the server (the phone's queue is empty)."""
    page.wait_for_function(QUEUE_IDLE, timeout=timeout)


def waiting_on_the_phone(page) -> int:
    """How many entries the phone says wait (beside the Save button)."""
    return int(page.locator("[data-queue-status]").first.get_attribute("data-waiting"))


def sheet_shown(page) -> dict[str, object]:
    return page.evaluate(SHEET)


def scores(sheet: dict[str, object]) -> dict[str, object]:
    """The figures of a sheet, whoever shows it (the marks of the phone's own rows aside)."""
    return {
        "rows": [
            {key: row[key] for key in row if key not in ("phone", "refused", "conflict")}
            for row in sheet["rows"]
        ],
        "settlement": sheet["settlement"],
        "totals": sheet["totals"],
    }
