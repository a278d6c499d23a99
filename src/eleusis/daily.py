"""The daily rule: one Solo puzzle a day, the same for everyone, from the date alone.

:func:`daily_puzzle` turns a date into a Solo game (its :class:`~eleusis.game.Config`)
whose secret rule and deal depend on nothing but the ISO date, so every
player, in CPython or in the browser's Pyodide, gets the same puzzle that day:

* the **deal** comes from the seed ``first 8 bytes of sha256("eleusis-daily-deal:" +
  ISO date)`` (never Python's ``hash()``, which is salted per process), through
  the engine's own generator (:mod:`eleusis.rng`);
* the **rule** comes from the rule library (playable rules only, never the
  seeds' extreme examples), with a difficulty set by the weekday --
  Monday 1, Tuesday 2, Wednesday 3, Thursday 4, Friday 3, Saturday 4,
  Sunday 5 (easy at the start of the week, hardest on Sunday). Neighbouring
  weekdays always have different difficulties (Sunday 5 is followed by
  Monday 1), so **two consecutive days never share a rule**. Within one
  difficulty the rules are dealt out like a shuffled deck: every rule of
  the pool comes once before any comes back (the order of each round of the
  pool is shuffled with a seed from sha256 of its number);
* the pools are **pinned** here by library name (:data:`POOLS`), so a rule added
  to the library later does not move every future day: a page served from an
  older cache and a fresh one agree. Change them only with
  :data:`POOL_VERSION`.

:func:`share_text` gives a short spoiler-free text of a finished (or running)
daily game: the date, solved or not, turns, wrong guesses, the score and a
row of marks (🟩 accepted, 🟥 rejected), never a card or the rule.

Streaks are pure functions over a small JSON-friendly history (what the page
keeps in ``localStorage``): :func:`record_result`, :func:`streak`,
:func:`best_streak`, and :func:`validate_history` for data read back.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from eleusis import rng
from eleusis.game import Config, State, Variant, make_config, new_game
from eleusis.i18n import N_, _, ngettext
from eleusis.rules.library import LibraryRule, get
from eleusis.safejson import loads

POOL_VERSION: Final = 1
#: Difficulty by weekday, Monday first (``date.weekday()``).
WEEKDAY_DIFFICULTY: Final = (1, 2, 3, 4, 3, 4, 5)
HISTORY_VERSION: Final = 1
MAX_HISTORY_DAYS: Final = 3700  # about ten years of daily results
MARKS_PER_LINE: Final = 10

#: The daily rule pools, by difficulty: the library's playable rules when the
#: daily rule was introduced (pinned: see the module docstring).
POOLS: Final[dict[int, tuple[str, ...]]] = {
    1: (
        "aces-and-faces", "black-only", "clubs-only", "even-only", "faces-only", "fibonacci",
        "hearts-only", "high-cards", "low-cards", "middle-cards", "multiples-of-three",
        "no-middle-cards", "no-primes", "odd-only", "one-mod-four", "powers-of-two",
        "primes-only", "red-only", "seed-primes", "small-evens", "spades-only",
        "spades-or-diamonds", "squares", "two-to-nine",
    ),
    2: (
        "alternate-colors", "alternate-parity", "black-high-or-red-low", "black-odds",
        "black-or-face", "diamonds-or-odd", "faces-and-numerals-alternate", "hearts-or-low",
        "nothing-in-common", "other-suit-same-color", "red-evens", "red-faces-black-numerals",
        "red-numerals", "red-odd-black-even", "red-primes-black-others", "same-color",
        "same-color-or-rank", "same-parity", "same-suit", "same-suit-or-rank", "spades-or-face",
        "suit-cycle-bridge", "suit-cycle-hcds", "suit-cycle-scdh", "suit-cycle-shdc",
    ),
    3: (
        "black-up-red-down", "change-color-or-face", "close-ranks", "color-by-position",
        "down-or-reset", "face-after-black", "far-ranks", "high-low-alternate",
        "higher-or-same-suit", "higher-unless-face", "jump-three-or-four",
        "lower-or-same-color", "neighbours", "odd-black-else-red", "odd-red-even-black",
        "one-of-two-low", "one-step", "parity-by-position", "parity-follows-color",
        "plus-one-or-minus-two", "primes-alternate", "rank-mod-three-colors", "red-after-face",
        "red-after-prime", "red-up-black-down", "same-parity-new-rank",
        "same-rank-or-color-change", "same-suit-or-face", "same-suit-or-next",
        "same-suit-or-one-up", "stay-in-half", "suit-bands", "sum-at-least-fourteen",
        "sum-multiple-of-three", "up-low-down-high",
    ),
    4: (
        "ace-king-ladder", "climb-one-to-three", "climb-to-face", "color-as-two-back",
        "color-differs-two-back", "even-sum-of-three", "face-after-color-pair",
        "face-every-third", "face-then-same-suit", "fresh-suit", "last-rank-picks-suit",
        "mirror-sum", "parity-every-third", "position-red-red-black", "position-suit-cycle",
        "position-sum-not-three", "prev-rank-mod-three", "red-after-rise",
        "red-climbs-black-falls", "red-then-black-after-ten", "rising-caps",
        "same-color-up-other-down", "suit-as-two-back", "suit-two-back-or-rank",
        "suit-two-positions", "up-even-down-odd",
    ),
    5: (
        "color-run-then-suit", "color-two-back-new-rank", "echo-or-step",
        "even-follow-odd-change", "face-every-fourth-else-alternate", "four-suit-window",
        "half-by-card-color", "higher-than-both-or-face", "near-fibonacci",
        "odd-position-higher", "prev-suit-decides", "prev-suit-directions", "rank-class-cycle",
        "rise-or-change-color", "suits-in-pairs", "sum-of-three-mod-three", "sum-parity-color",
        "third-follows-suit", "too-complicated", "two-back-rank-picks-suit", "zigzag",
    ),
}


#: What the player reads when the stored history could not be used.
#: (English here; :func:`load_history` gives it in the player's language.)
DAMAGED_MESSAGE: Final = N_("Your daily streak record was damaged, so it starts again.")
#: Characters of a stored history's JSON (MAX_HISTORY_DAYS days of about 60 each, and room).
MAX_HISTORY_CHARS: Final = 400_000


class DailyError(ValueError):
    """A date, game or history that the daily puzzle cannot use (the message says why)."""


def _day(day: object) -> _dt.date:
    if isinstance(day, _dt.datetime):
        return day.date()
    if not isinstance(day, _dt.date):
        raise DailyError(f"a day is a date, not {type(day).__name__}")
    return day


def _digest64(label: str) -> int:
    """The first 8 bytes of sha256(label), big-endian: the same in every Python."""
    return int.from_bytes(hashlib.sha256(label.encode("utf-8")).digest()[:8], "big")


def daily_seed(day: _dt.date) -> int:
    """The deal's seed for ``day`` (a 64-bit number from the ISO date)."""
    return _digest64(f"eleusis-daily-deal:{_day(day).isoformat()}")


def daily_difficulty(day: _dt.date) -> int:
    """The difficulty (1..5) of ``day``'s rule, from its weekday."""
    return WEEKDAY_DIFFICULTY[_day(day).weekday()]


def daily_rule(day: _dt.date) -> LibraryRule:
    """The library rule of ``day`` (see the module docstring for the drawing)."""
    d = _day(day)
    weekday = d.weekday()
    difficulty = WEEKDAY_DIFFICULTY[weekday]
    same = [w for w in range(7) if WEEKDAY_DIFFICULTY[w] == difficulty]
    week = (d.toordinal() - 1) // 7  # ordinal 1 (0001-01-01) is a Monday
    k = week * len(same) + same.index(weekday)
    pool = POOLS[difficulty]
    cycle, i = divmod(k, len(pool))
    seed = _digest64(f"eleusis-daily-pool:{POOL_VERSION}:{difficulty}:{cycle}")
    order, _rest = rng.shuffle(pool, rng.seed_state(seed))
    return get(order[i])


@dataclass(frozen=True)
class DailyPuzzle:
    """The puzzle of one day: the Solo set-up, and the rule (shown only at the end)."""

    day: _dt.date
    rule: LibraryRule
    config: Config

    @property
    def seed(self) -> int:
        """The deal's seed."""
        return self.config.seed

    @property
    def difficulty(self) -> int:
        """1..5 (the weekday's)."""
        return self.rule.difficulty

    def start(self) -> State:
        """The first state of the day's game."""
        return new_game(self.config)

    def matches(self, game: State) -> bool:
        """Whether ``game`` is this day's puzzle (same variant, rule and deal)."""
        cfg = game.config
        return (
            cfg.variant is Variant.SOLO
            and cfg.rule == self.config.rule
            and cfg.seed == self.config.seed
            and cfg.options == self.config.options
        )


def daily_puzzle(day: _dt.date, name: str = "You") -> DailyPuzzle:
    """The Solo puzzle of ``day`` for a player called ``name`` (the name changes nothing else)."""
    d = _day(day)
    rule = daily_rule(d)
    try:
        cfg = make_config(Variant.SOLO, [name], rule.text, daily_seed(d))
    except ValueError as exc:
        raise DailyError(f"no daily puzzle for {d.isoformat()}: {exc}") from None
    return DailyPuzzle(d, rule, cfg)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class DailyResult:
    """How a daily game went (what the history keeps)."""

    solved: bool
    score: int
    turns: int
    wrong_guesses: int

    def to_data(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {
            "solved": self.solved,
            "score": self.score,
            "turns": self.turns,
            "wrong": self.wrong_guesses,
        }


def result_of(game: State) -> DailyResult:
    """The result of a finished Solo game (:class:`DailyError` if it is not over)."""
    if game.config.variant is not Variant.SOLO or not game.over or game.result is None:
        raise DailyError("the game is not a finished Solo game")
    seat = game.seats[0]
    return DailyResult(bool(seat.right_guess), game.result.scores[0], game.turns,
                       seat.wrong_guesses)


def marks(game: State) -> str:
    """One mark per card played: 🟩 accepted, 🟥 rejected (lines of ten)."""
    row = ["🟩" if e.right else "🟥" for e in game.events if e.kind == "play" and e.seat == 0]
    return "\n".join(
        "".join(row[i : i + MARKS_PER_LINE]) for i in range(0, len(row), MARKS_PER_LINE)
    )


def share_text(game: State, day: _dt.date) -> str:
    """A short spoiler-free text of ``day``'s game: no card, no rule.

    ``Eleusis daily 2026-11-21 (difficulty 3/5) — solved in 14 turns, 1 wrong guess,
    score 14`` then the row of marks, in the player's language
    (:func:`eleusis.i18n.language`; the marks are the same in every one). Raises
    :class:`DailyError` if ``game`` is not that day's puzzle.
    """
    d = _day(day)
    if not daily_puzzle(d).matches(game):
        raise DailyError(f"this game is not the daily puzzle of {d.isoformat()}")
    seat = game.seats[0]
    n = seat.wrong_guesses
    wrong = ngettext("{count} wrong guess", "{count} wrong guesses", n).format(count=n)
    turns = game.turns
    if not game.over or game.result is None:
        line = ngettext("in progress, {count} turn, {wrong}",
                        "in progress, {count} turns, {wrong}", turns).format(
            count=turns, wrong=wrong)
    else:
        if seat.right_guess:
            said = ngettext("solved in {count} turn, {wrong}, score {score}",
                            "solved in {count} turns, {wrong}, score {score}", turns)
        else:
            said = ngettext("not solved after {count} turn, {wrong}, score {score}",
                            "not solved after {count} turns, {wrong}, score {score}", turns)
        line = said.format(count=turns, wrong=wrong, score=game.result.scores[0])
    head = _("Eleusis daily {day} (difficulty {difficulty}/5) — {result}").format(
        day=d.isoformat(), difficulty=daily_difficulty(d), result=line)
    row = marks(game)
    return f"{head}\n{row}" if row else head


# --------------------------------------------------------------------------- streaks


def empty_history() -> dict[str, Any]:
    """A history with no day played."""
    return {"version": HISTORY_VERSION, "days": {}}


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_ISO_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _iso(text: object) -> _dt.date:
    # only YYYY-MM-DD: Python 3.11+ also reads week dates ("2026-W47-6"), which would
    # let two keys name one day
    if not isinstance(text, str) or not _ISO_DATE.fullmatch(text):
        raise DailyError(f"{str(text)[:40]!r} is not a date (YYYY-MM-DD)")
    try:
        return _dt.date.fromisoformat(text)
    except ValueError:
        raise DailyError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def _result(data: object, where: str) -> DailyResult:
    if not isinstance(data, Mapping):
        raise DailyError(f"{where}: a result must be an object")
    if set(data) != {"solved", "score", "turns", "wrong"}:
        raise DailyError(f"{where}: a result has exactly solved, score, turns and wrong")
    solved, score, turns, wrong = data["solved"], data["score"], data["turns"], data["wrong"]
    if not isinstance(solved, bool):
        raise DailyError(f"{where}: 'solved' must be true or false")
    for key, v, lo, hi in (("score", score, -1000, 1000), ("turns", turns, 0, 1000),
                           ("wrong", wrong, 0, 1000)):
        if not _whole(v) or not lo <= v <= hi:
            raise DailyError(f"{where}: '{key}' must be a whole number from {lo} to {hi}")
    return DailyResult(solved, score, turns, wrong)


def validate_history(data: object) -> dict[str, Any]:
    """A clean copy of a stored history, or :class:`DailyError` saying what is wrong."""
    if not isinstance(data, Mapping):
        raise DailyError("the daily history must be an object")
    if data.get("version") != HISTORY_VERSION:
        raise DailyError(
            f"daily history format {data.get('version')!r} is not known"
            f" (this version reads {HISTORY_VERSION})"
        )
    days = data.get("days")
    if not isinstance(days, Mapping):
        raise DailyError("the daily history's 'days' must be an object")
    if len(days) > MAX_HISTORY_DAYS:
        raise DailyError(f"the daily history holds {len(days)} days (at most {MAX_HISTORY_DAYS})")
    out: dict[str, Any] = {}
    for key in sorted(days, key=str):
        d = _iso(key)
        out[d.isoformat()] = _result(days[key], f"day {d.isoformat()}").to_data()
    return {"version": HISTORY_VERSION, "days": out}


def record_result(history: object, day: _dt.date, result: DailyResult) -> dict[str, Any]:
    """A new history with ``day``'s result (the input is not changed).

    A day is played once: if it is already recorded, the first result stays.
    The oldest days are dropped beyond :data:`MAX_HISTORY_DAYS`.
    """
    h = validate_history(history)
    d = _day(day).isoformat()
    if not isinstance(result, DailyResult):
        raise DailyError("the result must be a DailyResult")
    _result(result.to_data(), f"day {d}")
    days: dict[str, Any] = dict(h["days"])
    if d in days:
        return h
    days[d] = result.to_data()
    keep = sorted(days)[-MAX_HISTORY_DAYS:]
    return {"version": HISTORY_VERSION, "days": {k: days[k] for k in keep}}


def _solved_days(history: object) -> set[int]:
    """The solved days as ordinals (whole numbers: no date arithmetic can overflow at the
    calendar's ends, 0001-01-01 and 9999-12-31)."""
    h = validate_history(history)
    return {_dt.date.fromisoformat(k).toordinal() for k, v in h["days"].items() if v["solved"]}


def streak(history: object, today: _dt.date) -> int:
    """Days solved in a row up to ``today`` (or up to yesterday while today is not played).

    A day played and not solved ends the streak; so does a day missed. Any
    day of the calendar works, its first and last included:

    >>> h = record_result(empty_history(), _dt.date.min, DailyResult(True, 20, 8, 1))
    >>> streak(h, _dt.date.min), streak(h, _dt.date(1, 1, 2)), best_streak(h)
    (1, 1, 1)
    """
    t = _day(today)
    h = validate_history(history)
    solved = _solved_days(h)
    day = t.toordinal() if t.isoformat() in h["days"] else t.toordinal() - 1
    n = 0
    while day in solved:
        n += 1
        day -= 1
    return n


def best_streak(history: object) -> int:
    """The longest run of days solved in a row."""
    solved = _solved_days(history)
    best = 0
    for d in solved:
        if d - 1 in solved:
            continue
        n = 1
        while d + n in solved:
            n += 1
        best = max(best, n)
    return best


def load_history(text: str | None) -> tuple[dict[str, Any], str]:
    """The streak history from its stored JSON text, and a message when it had to be reset.

    ``None`` or an empty text is an empty history. A damaged text (not JSON,
    nested too deeply, not a history) gives an empty history and a sentence
    for the player; it never raises.

    >>> load_history("[" * 20000)[1]
    'Your daily streak record was damaged, so it starts again.'
    """
    if text is None or text == "":
        return empty_history(), ""
    try:
        return validate_history(loads(text, max_chars=MAX_HISTORY_CHARS)), ""
    except ValueError:  # JsonError, DailyError
        return empty_history(), _(DAMAGED_MESSAGE)


__all__ = [
    "POOLS",
    "WEEKDAY_DIFFICULTY",
    "DailyError",
    "DailyPuzzle",
    "DailyResult",
    "best_streak",
    "daily_difficulty",
    "daily_puzzle",
    "daily_rule",
    "daily_seed",
    "empty_history",
    "load_history",
    "marks",
    "record_result",
    "result_of",
    "share_text",
    "streak",
    "validate_history",
]
