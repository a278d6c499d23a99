"""The game on this device: the new-game choices, and the session they start.

Plain data and pure functions (no ``js``): what the new-game screen chooses
(:class:`Setup`), how a round of it is dealt (:func:`make_round`), who deals
a match's first round (:func:`first_dealer`; the engine's match rotates the
dealer from there), and the session kept in the browser (:class:`Session`: the
setup and each round as a replay text, re-checked move by move when loaded).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from eleusis.game import ConfigError, State, Variant
from eleusis.i18n import N_, _
from eleusis.match import Dealing, Match, MatchError
from eleusis.replay import ReplayError, encode
from eleusis.variants import VariantInfo, rules_for
from eleusis.variants import info as variant_info

#: Variant keys offered by the new-game screen, with their names.
VARIANTS: Final[dict[str, str]] = {  # said with eleusis.i18n._ when shown
    "new_eleusis": N_("New Eleusis"),
    "express": N_("Eleusis Express"),
    "express3": N_("Express with 3 lives"),
    "royal": N_("Royal Eleusis"),
    "solo": N_("Solo"),
}

#: Pace of computer turns: milliseconds between two computer steps.
PACES: Final[dict[str, int]] = {"slow": 1600, "normal": 700, "fast": 200, "instant": 0}

#: Computer strengths offered per seat (presets of :mod:`eleusis.ai.scientist`).
STRENGTHS: Final[tuple[str, ...]] = ("novice", "casual", "strong", "expert")

#: Seat kinds: ``you`` (the first person), ``person`` (hot-seat), ``computer``,
#: ``dealer`` (a person dealing: writes the rule or judges by hand).
HUMAN_KINDS: Final = frozenset({"you", "person", "dealer"})

DEALERS: Final[dict[str, str]] = {
    "computer": "The computer (a rule from the library)",
    "writer": "A person who writes the rule",
    "judge": "A person who judges every play by hand",
}

COMPUTER_NAMES: Final = ("Ada", "Kepler", "Curie", "Darwin", "Noether", "Faraday", "Hypatia")

MAX_SELECT: Final = 4


def fresh_seed() -> int:
    """A new game's seed from the system's random source (every new game deals anew)."""
    return random.SystemRandom().getrandbits(48)


def variant_available(key: str) -> str | None:
    """``None`` if the engine implements variant ``key``, else why not (for a tooltip)."""
    try:
        rules_for(Variant(engine_variant(key)))
    except ConfigError:
        return f"{VARIANTS.get(key, key)} is not available yet"
    return None


#: The new-game menu's entries that are an engine variant with options set:
#: entry -> (engine variant, options).
PRESETS: Final[dict[str, tuple[str, dict[str, str | int | bool]]]] = {
    "express3": ("express", {"lives": 3}),
    "solo": ("solo", {"hints": True}),
}
#: The fewest opponents the menu offers where it asks for more than the engine
#: (a New Eleusis prophet needs two other scientists still playing).
MIN_OPPONENTS: Final[dict[str, int]] = {"new_eleusis": 2}


def engine_variant(key: str) -> str:
    """The engine's variant name for a setup key (``express3`` is Express with lives)."""
    return PRESETS.get(key, (key, {}))[0]


def facts(key: str) -> VariantInfo:
    """The engine's facts of the variant of a setup key."""
    return variant_info(engine_variant(key))


def seat_limits(key: str) -> tuple[int, int]:
    """Fewest and most opponents (other scientists) the variant allows."""
    low, high = facts(key).scientists
    return (max(low - 1, MIN_OPPONENTS.get(key, 0)), high - 1)


@dataclass
class SeatPlan:
    """One seat as chosen on the new-game screen."""

    name: str
    kind: str = "computer"  # "you", "person" or "computer"
    strength: str = "casual"


@dataclass
class Setup:
    """Everything the new-game screen chooses. Defaults play at once."""

    variant: str = "new_eleusis"
    seats: list[SeatPlan] = field(default_factory=list)
    dealer: str = "computer"  # see DEALERS
    dealer_name: str = ""  # (a person dealing; empty: "Dealer" in the player's language)
    difficulty: str = "2"  # "1".."5" or "surprise"
    match: bool = False
    seed: int = 1
    rule: str | None = None  # forced rule (a person's, or a test hook)
    pace: str = "normal"

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = default_seats(self.variant)
        if not self.dealer_name:
            self.dealer_name = _("Dealer")

    def to_data(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Setup:
        """Rebuild from :meth:`to_data` (raises ``ValueError`` on a bad shape)."""
        try:
            seats = [SeatPlan(str(s["name"]), str(s["kind"]), str(s["strength"]))
                     for s in data["seats"]]
            return cls(
                variant=str(data["variant"]),
                seats=seats,
                dealer=str(data["dealer"]),
                dealer_name=str(data["dealer_name"]),
                difficulty=str(data["difficulty"]),
                match=bool(data["match"]),
                seed=int(data["seed"]),
                rule=None if data.get("rule") is None else str(data["rule"]),
                pace=str(data.get("pace", "normal")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(_("bad setup: {detail}").format(detail=exc)) from None


def default_seats(variant: str) -> list[SeatPlan]:
    """You plus the usual computer opponents: 3 in New Eleusis, 2 in Express, none in Solo."""
    n = {"solo": 0, "express": 2, "express3": 2}.get(variant, 3)
    return [SeatPlan(_("You"), "you")] + [
        SeatPlan(COMPUTER_NAMES[i], "computer", "casual") for i in range(n)
    ]


def pick_rule(setup: Setup, round_index: int) -> str | None:
    """The secret rule of a round: forced, the library's by difficulty, or generated."""
    if setup.dealer == "judge":
        return None
    if setup.rule is not None:
        return setup.rule
    rng = random.Random(setup.seed * 7919 + round_index)
    if setup.difficulty == "surprise":
        from eleusis.rules.generate import generate

        return generate(rng.randint(1, 4), rng).text
    from eleusis.rules.library import random_rule

    difficulty = int(setup.difficulty) if setup.difficulty in "12345" else 2
    return random_rule(difficulty, rng).text


def rotating(setup: Setup) -> bool:
    """A match where everyone deals once (the dealer is one of the seats, in turn)."""
    return setup.match and facts(setup.variant).rotates and len(setup.seats) >= 2


def first_dealer(setup: Setup) -> int:
    """The seat dealing the first round of a rotating match (the engine's
    :meth:`~eleusis.match.Match.dealer_of` says who deals each later round).

    When a person was chosen to deal ("a person writes the rule" or "judges by
    hand"), you deal the first round; with a computer dealer, you deal last
    (the computers show you a round first).
    """
    return (0 if setup.dealer != "computer" else 1) % len(setup.seats)


def dealer_seat(setup: Setup, round_index: int, match: Match | None = None) -> int:
    """The seat dealing round ``round_index`` of a rotating match: the first dealer
    before the match exists, else the engine's rotation."""
    if match is None or round_index == 0:
        return first_dealer(setup)
    seat = match.dealer_of(round_index)
    assert seat is not None  # a rotating match: a seat deals every round
    return seat


def person_deals(setup: Setup, round_index: int, match: Match | None = None) -> bool:
    """Whether a person on this device deals this round (writes or judges the rule);
    ``match``: the engine's match, for any round after the first."""
    if not facts(setup.variant).person_dealer:
        return False
    if rotating(setup):
        return setup.seats[dealer_seat(setup, round_index, match)].kind != "computer"
    return setup.dealer != "computer"


def writes_rule(setup: Setup, round_index: int, match: Match | None = None) -> bool:
    """Whether this round starts with a person writing the secret rule."""
    if not person_deals(setup, round_index, match):
        return False
    return setup.dealer != "judge"  # in a match a person writes unless hands judge


def several_people(setup: Setup) -> bool:
    """Do several people share this device (hot-seat)? Then secrets need a pass screen."""
    return sum(k in HUMAN_KINDS for k in seat_kinds(setup)) > 1


def seat_kinds(setup: Setup) -> list[str]:
    """The kind of each engine seat (a person dealing outside a match takes seat 0)."""
    kinds = [s.kind for s in setup.seats]
    if setup.dealer != "computer" and facts(setup.variant).person_dealer \
            and not rotating(setup):
        kinds = ["dealer", *kinds]
    return kinds


def new_match(setup: Setup) -> Match:
    """The engine's :class:`~eleusis.match.Match` for a new game of ``setup``.

    A match where everyone deals (:func:`rotating`) starts with the dealer of
    :func:`first_dealer`; a person dealing one round sits first (one more seat
    than the players); otherwise the computer deals.
    """
    variant = engine_variant(setup.variant)
    names = [s.name.strip() or _("Player {number}").format(number=i + 1)
             for i, s in enumerate(setup.seats)]
    options = dict(PRESETS.get(setup.variant, (variant, {}))[1])
    if rotating(setup):
        return Match.rotation(variant, names, setup.seed, first_dealer(setup), **options)
    if setup.dealer != "computer" and facts(setup.variant).person_dealer:
        return Match.single(variant, [setup.dealer_name.strip() or _("Dealer"), *names],
                            setup.seed, dealer=0, **options)
    return Match.single(variant, names, setup.seed, None, **options)


def round_seed(setup: Setup, round_index: int) -> int:
    """The deal of round ``round_index``: from the game's seed (saves and links carry it)."""
    return (setup.seed * 1_000_003 + round_index) & 0xFFFFFFFF


def round_rule(setup: Setup, round_index: int, rule: str | None = None,
               match: Match | None = None) -> str | None:
    """The secret rule of round ``round_index``: a person's (``rule``), none when a
    person judges by hand, else the computer dealer's choice (:func:`pick_rule`)."""
    if rule is not None:
        return rule
    judged = person_deals(setup, round_index, match) and setup.dealer == "judge"
    if judged or writes_rule(setup, round_index, match):
        return None
    return pick_rule(setup, round_index)


@dataclass
class Session:
    """One game on this device: the setup, the engine's match, who sits where.

    The rounds, their dealers, the scores and an early end are the engine's
    :class:`~eleusis.match.Match`; the session adds what only the page knows:
    which seats are people on this device (``kinds``), the new-game choices,
    and the share features' small data.
    """

    id: str
    setup: Setup
    match: Match
    kinds: list[str]
    created: float = 0.0
    #: what the share features keep with the game (``notebook``, ``daily``,
    #: ``challenge``): small JSON data, saved only when present
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, sid: str, setup: Setup, rule: str | None, created: float = 0.0,
              extra: dict[str, Any] | None = None) -> Session:
        """A new game of ``setup``, its first round dealt (``ConfigError`` with a clear
        message when the table cannot start)."""
        match = new_match(setup).start_round(round_rule(setup, 0, rule), round_seed(setup, 0))
        return cls(sid, setup, match, seat_kinds(setup), created, dict(extra or {}))

    @classmethod
    def of_round(cls, sid: str, setup: Setup, state: State, created: float = 0.0,
                 extra: dict[str, Any] | None = None) -> Session:
        """A one-round game around a round dealt elsewhere (the daily puzzle, a challenge)."""
        match = Match.from_rounds([state], Dealing.COMPUTER, state.config.seed)
        return cls(sid, setup, match, seat_kinds(setup), created, dict(extra or {}))

    @property
    def rounds(self) -> tuple[State, ...]:
        """The rounds dealt so far (the last one is current)."""
        return self.match.rounds

    @property
    def state(self) -> State:
        """The current round."""
        state = self.match.current
        assert state is not None  # a session always has a round
        return state

    @property
    def planned_rounds(self) -> int:
        """1, or in a match one round per seat (everyone deals once)."""
        return self.match.planned_rounds

    @property
    def ended_early(self) -> bool:
        """A match ended before everyone dealt ("End match"): compensation applies."""
        return self.match.ended_early

    @property
    def match_over(self) -> bool:
        """No round is running and none will follow (every round played, or ended early)."""
        return self.match.complete

    def update(self, state: State) -> None:
        """The current round, moved on to ``state``."""
        self.match = self.match.with_state(state)

    def next_round(self, rule: str | None = None) -> None:
        """Deal the next round (``rule``: a person's; else as :func:`round_rule` says)."""
        k = len(self.rounds)
        self.match = self.match.start_round(round_rule(self.setup, k, rule, self.match),
                                            round_seed(self.setup, k))

    def end_early(self) -> None:
        """End the match now: a running round is dropped, the compensation applies."""
        self.match = self.match.end_early()

    def computer_seats(self) -> dict[int, str]:
        """This round's computer scientists (a computer dealing is not one) and strengths."""
        offset = len(self.kinds) - len(self.setup.seats)
        dealer = self.state.config.dealer
        return {i: self.setup.seats[i - offset].strength for i, k in enumerate(self.kinds)
                if k == "computer" and i != dealer}

    def humans(self) -> list[int]:
        """Seats played by people on this device (dealer included)."""
        return [i for i, k in enumerate(self.kinds) if k in HUMAN_KINDS]

    def to_data(self) -> dict[str, Any]:
        """Plain JSON data: the setup and each round as a replay text (the saved game)."""
        return {
            "id": self.id,
            "setup": self.setup.to_data(),
            "kinds": list(self.kinds),
            "rounds": [encode(r) for r in self.rounds],
            "created": self.created,
            **({"extra": dict(self.extra)} if self.extra else {}),
            **({"ended_early": True} if self.ended_early else {}),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Session:
        """Rebuild a session, re-applying every move (``ValueError`` if anything is off).

        The match is the engine's reading of the page's saves
        (:meth:`eleusis.match.Match.from_session`); saves written before the
        match moved into the engine open the same way.
        """
        try:
            setup = Setup.from_data(data["setup"])
            kinds = [str(k) for k in data["kinds"]]
            sid = str(data["id"])
            match = Match.from_session(data)
        except (KeyError, TypeError, ReplayError, MatchError) as exc:
            raise ValueError(_("bad saved game: {detail}").format(detail=exc)) from None
        if not match.rounds or len(kinds) != len(match.rounds[-1].seats):
            raise ValueError(_("bad saved game: seats and rounds disagree"))
        if rotating(setup) and match.planned_rounds != max(1, len(setup.seats)):
            raise ValueError(_("bad saved game: the match and its setup disagree"))
        extra = data.get("extra")
        return cls(sid, setup, match, kinds, float(data.get("created", 0.0)),
                   dict(extra) if isinstance(extra, dict) else {})


#: Hosts where the page honours its test hooks (``seed``, ``rule``, ``grace``).
LOCAL_HOSTS: Final = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})


@dataclass(frozen=True)
class Presets:
    """What the page's address may preset on the new-game screen.

    ``variant``, ``pace`` and ``dealer`` are harmless conveniences. The test
    hooks ``seed`` (the deal), ``rule`` (a computer dealer's secret rule) and
    ``grace`` (how long an optional moment lasts) are honoured only on the
    machine itself (a loopback host): on a hosted page a link cannot fix the
    deal or tell the secret rule in advance.
    """

    variant: str | None = None
    pace: str | None = None
    dealer: str | None = None
    seed: int | None = None
    rule: str | None = None
    grace: int | None = None


def url_presets(params: dict[str, str], host: str) -> Presets:
    """Read the address's query (``params``) for the page on ``host``.

    >>> url_presets({"variant": "solo", "seed": "7", "rule": "card is red"}, "example.org")
    Presets(variant='solo', pace=None, dealer=None, seed=None, rule=None, grace=None)
    >>> url_presets({"seed": "7", "rule": "card is red"}, "127.0.0.1").seed
    7
    """
    variant = params.get("variant", "").replace("-", "_")
    pace = params.get("pace", "")
    dealer = params.get("dealer", "")
    local = host in LOCAL_HOSTS
    seed = params.get("seed", "")
    grace = params.get("grace", "")
    rule = params.get("rule", "")
    return Presets(
        variant=variant if variant in VARIANTS else None,
        pace=pace if pace in PACES else None,
        dealer=dealer if dealer in DEALERS else None,
        seed=int(seed) if local and seed.isdigit() and len(seed) <= 18 else None,
        rule=rule[:600] if local and rule else None,
        grace=min(int(grace), 600_000) if local and grace.isdigit() and len(grace) <= 9 else None,
    )
