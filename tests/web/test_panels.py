"""The share features' panels: each drawn from its own view model, placed by its screen.

A fake app (the members of :class:`eleusis_web.context.AppContext`, storage in
memory) stands in for the page, so the panels are tested without a browser:
where each appears, what it says, and that drawing writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from eleusis.challenge import make_challenge, open_challenge
from eleusis_web import challenge_view, daily_view, features, intents, render
from eleusis_web.controller import Controller
from eleusis_web.replay_view import Replay
from eleusis_web.storage import DAILY, MemoryStorage, Saves
from eleusis_web.viewmodel import round_end_model, setup_model, table_model

RED = "card is red"


@dataclass
class FakeApp:
    """What a feature may use of the app, without a page."""

    c: Controller = field(default_factory=Controller)
    store: MemoryStorage = field(default_factory=MemoryStorage)
    ui_extra: dict[str, Any] = field(default_factory=dict)
    replay: Replay | None = None
    replay_timer: Any = None
    replay_tick: Any = None
    link_message: tuple[str, str] | None = None
    share_note: str = ""
    special: str = ""
    saves: Saves = field(init=False)

    def __post_init__(self) -> None:
        self.saves = Saves(self.store, clock=lambda: 1.0)

    def render(self) -> None:
        """Nothing to draw into."""

    def save(self) -> None:
        s = self.c.session
        if s is not None:
            self.saves.write(s.to_data(), "game")

    def settle(self) -> None:
        daily_view.settle(self)

    def send(self, raw: dict[str, object]) -> None:
        """An intent as the page routes it: to its feature, else to the table."""
        intent = intents.parse(raw)
        handler = features.HANDLERS.get(intent.owner)
        if handler is not None:
            handler(self, intent)
        else:
            self.c.dispatch(intent)
        self.settle()


def setup_page(app: FakeApp) -> Any:
    return render.setup_screen(setup_model(app.c, [], []), features.panels(app, "setup"))


def test_the_new_game_screen_offers_the_daily_puzzle_a_challenge_and_the_archive() -> None:
    app = FakeApp()
    page = setup_page(app)
    shelf = page.querySelector('section[aria-label="Puzzles and sharing"]')
    assert shelf is not None
    assert [e.attrs["class"] for e in shelf.elements()] == [
        "share-entry daily-entry", "share-entry challenge-entry", "share-entry archive-entry"]
    assert "Streak 0, best 0" in shelf.textContent
    assert page.querySelector('[data-key="daily-start"]') is not None
    assert app.store.data == {}  # drawing wrote nothing


def test_a_damaged_streak_record_is_told_once_and_repaired_after_drawing_never_while() -> None:
    app = FakeApp()
    app.store.setItem(DAILY, "{broken")
    page = setup_page(app)
    assert "damaged" in page.querySelector(".daily-entry .notice").textContent  # type: ignore[union-attr]
    assert app.store.getItem(DAILY) == "{broken"  # drawing repaired nothing
    app.c.ui.screen = "setup"
    app.settle()  # after a change: repaired, and said once more
    assert app.store.getItem(DAILY) != "{broken"
    assert setup_page(app).querySelector(".daily-entry .notice") is not None
    app.settle()
    assert setup_page(app).querySelector(".daily-entry .notice") is None


def test_the_notebook_sits_beside_the_players_and_marks_cards_against_the_focused_note() -> None:
    app = FakeApp()
    app.send({"type": "new-game", "variant": "solo"})
    for _ in range(6):  # a few cards, right and wrong, on the layout
        state = app.c.state
        assert state is not None and app.c.ui.viewer is not None
        _card, token = app.c.hand_tokens(app.c.ui.viewer)[0]
        app.send({"type": "select", "card": token.partition("#")[0]})
        app.send({"type": "play"})
    app.send({"type": "nb_text", "value": "card is red and card is black"})  # fits nothing
    app.send({"type": "nb_add"})
    panels = features.panels(app, "table")
    vm = table_model(app.c)
    screen = render.table_screen(vm, 0, panels)
    side = screen.querySelector(".side-panel")
    assert side is not None and side.querySelector("#notebook") is not None
    marked = screen.querySelectorAll(".layout .contradicts")
    assert panels.marked and len(marked) == len(panels.marked)
    # the same layout without the notebook marks nothing
    assert not render.table_screen(vm, 0).querySelectorAll(".layout .contradicts")


def test_a_daily_games_end_shows_its_result_under_the_rule_and_the_share_panel_under_play_again(
) -> None:
    app = FakeApp()
    app.send({"type": "daily_start"})
    s = app.c.session
    assert s is not None and s.extra.get("daily")
    rule = s.state.config.rule
    assert rule
    app.send({"type": "guess_open", "open": True})
    app.send({"type": "guess", "value": rule})
    assert s.state.over and app.c.ui.screen == "round-end"
    stored = dict(app.store.data)
    panels = features.panels(app, "round-end")
    assert app.store.data == stored  # drawing wrote nothing
    screen = render.round_end_screen(round_end_model(app.c), None, panels)
    box = screen.querySelector(".round-end")
    assert box is not None
    kids = [e.attrs.get("class", "") or e.attrs.get("data-testid", "") for e in box.elements()]
    result = kids.index("share-box daily-result")
    assert "Streak: 1 day" in screen.querySelector(".daily-result").textContent  # type: ignore[union-attr]
    assert kids.index("controls") + 1 == kids.index("share-box")  # right under "Play again"
    assert result < kids.index("controls")
    link = screen.querySelector("#replay-link")
    assert link is not None and str(link.props["value"]).startswith("#r=")


def test_what_arrives_after_a_rounds_end_is_drawn_goes_under_its_buttons() -> None:
    """A challenge's comparison (once the computer has played the deal) and the
    computers' thoughts (worked out in slices) come after the score sheet is on
    the screen: drawn above "Play again" they would move it from under the
    player's pointer, and the click would land on them. They go under the
    buttons and the share panel; the daily result, there from the start, stays
    under the rule."""
    app = FakeApp()
    token = make_challenge(RED, 77, "Alice")
    challenge_view.open_link(app, token)  # type: ignore[arg-type]
    app.send({"type": "guess_open", "open": True})
    app.send({"type": "guess", "value": RED})
    s = app.c.session
    assert s is not None and s.state.over and app.c.ui.screen == "round-end"
    app.ui_extra["ch_run"] = challenge_view.ComputerRun(open_challenge(token))
    app.ui_extra["ch_run_for"] = s.id
    panels = features.panels(app, "round-end")
    thoughts = {-1: [(RED, "A card may be played when the card is red.", 0.9)]}
    for vm in (round_end_model(app.c), round_end_model(app.c, thoughts)):
        box = render.round_end_screen(vm, None, panels).querySelector(".round-end")
        assert box is not None
        kids = [e.attrs.get("class", "") for e in box.elements()]
        buttons = kids.index("controls")
        assert kids.index("share-box") == buttons + 1  # right under "Play again"
        assert kids.index("share-box challenge-result") > buttons + 1
        assert ("thoughts" in kids) == bool(vm.thoughts)
        if vm.thoughts:
            assert kids.index("thoughts") > buttons + 1
