"""What a new player met on the page, as the controller sees it (issue: the face rebuilt).

Each test plays the way a person does: a fresh controller with the page's own
seed source, intents as the page sends them, no fixed seed.
"""

from __future__ import annotations

from eleusis.game import legal_actions
from eleusis.rules import parse
from eleusis_web import intents
from eleusis_web.controller import Controller
from eleusis_web.session import SeatPlan, Setup
from eleusis_web.storage import PREFIX, MemoryStorage, Saves
from eleusis_web.viewmodel import link_problem, table_model

RED = "card is red"


def deal_of(c: Controller) -> tuple[str | None, tuple[str, ...]]:
    assert c.session is not None
    state = c.session.state
    return state.config.rule, tuple(x.code for x in state.stock)


def pick(c: Controller, right: bool, rule: str = RED,
         any_card: bool = False) -> dict[str, object]:
    """The intent selecting a card of the hand that ``rule`` judges ``right``
    (with ``any_card``, the first card when the hand holds none, as a player
    would play one anyway)."""
    found = find(c, right, rule)
    if found is None and any_card:
        assert c.ui.viewer is not None
        found = c.hand_tokens(c.ui.viewer)[0][1]
    if found is None:
        raise AssertionError("no such card in the hand")
    code, _, copy = found.partition("#")
    return {"type": "select", "card": code, **({"copy": int(copy)} if copy else {})}


def find(c: Controller, right: bool, rule: str = RED) -> str | None:
    """The token of a card of the hand that ``rule`` judges ``right``, or None."""
    assert c.ui.viewer is not None and c.state is not None
    r = parse(rule)
    for card, token in c.hand_tokens(c.ui.viewer):
        if r.accepts(list(c.state.mainline), card) == right:
            return token
    return None


def test_two_new_games_in_a_row_are_different_deals_and_rules() -> None:
    c = Controller()  # the page's own seed source
    c.dispatch({"type": "start"})
    first = deal_of(c)
    c.dispatch({"type": "show_setup"})
    c.dispatch({"type": "start"})
    second = deal_of(c)
    assert first != second
    c.dispatch({"type": "new-game", "variant": "solo"})
    assert deal_of(c) not in (first, second)


def test_a_resumed_game_then_a_new_game_is_a_new_deal() -> None:
    c = Controller()
    c.dispatch({"type": "start"})
    assert c.session is not None
    before = deal_of(c)
    from eleusis_web.session import Session

    again = Controller()  # a reload: the saved game goes on, then "New game"
    again.resume(Session.from_data(c.session.to_data()))
    assert deal_of(again) == before
    again.dispatch({"type": "show_setup"})
    again.dispatch({"type": "start"})
    assert deal_of(again) != before


def test_the_moment_to_guess_is_offered_in_every_game_not_only_the_first() -> None:
    c = Controller()
    offered = []
    for _ in range(2):
        c.ui.setup = Setup(variant="express", rule=RED, pace="instant",
                           seats=[SeatPlan("You", "you"), SeatPlan("Ada", "computer")])
        c.dispatch({"type": "start", "seed": 11})  # the same deal: the same move numbers
        assert c.ui.viewer is not None and c.state is not None
        while c.computer_due() is not None:
            c.computer_step()
        c.dispatch(pick(c, True))
        c.dispatch({"type": "play"})
        offered.append(c.window_open())
        c.dispatch({"type": "continue"})
        assert c.window_open() is None
        c.dispatch({"type": "show_setup"})
    assert offered == [0, 0]


def test_a_chosen_card_stays_chosen_while_the_computers_play() -> None:
    c = Controller(lambda: 21)
    c.ui.setup = Setup(variant="new_eleusis", rule=RED, pace="instant")
    c.dispatch({"type": "start"})
    assert c.ui.viewer == 0
    while c.computer_due() is None and c.state is not None and not c.state.over:
        # our turn first: play, so that the computers move next
        c.dispatch(pick(c, True))
        c.dispatch({"type": "play"})
        while c.window_open() is not None:
            c.dispatch({"type": "continue"})
    assert c.computer_due() is not None
    intent = pick(c, False)
    c.dispatch(intent)  # clicked while a computer is to move
    chosen = list(c.ui.selection)
    assert chosen
    while c.computer_due() is not None:
        c.computer_step()
        assert c.ui.selection == chosen
    vm = table_model(c)
    assert [x.order for x in vm.hand if x.token == chosen[0]] == [1]
    assert next(x for x in vm.controls if x.name == "Play").enabled


def test_a_card_that_is_not_in_the_hand_or_does_not_exist_is_refused() -> None:
    c = Controller(lambda: 5)
    c.ui.setup = Setup(variant="solo", rule=RED)
    c.dispatch({"type": "start"})
    state = c.state
    assert c.ui.viewer is not None and state is not None
    hand = {x.code for x in state.hand(c.ui.viewer)}
    other = next(code for code in ("AS", "2H", "3D", "4C", "5S") if code not in hand)
    assert c.dispatch({"type": "select", "card": other}) is False
    assert c.ui.selection == [] and "not in your hand" in c.ui.message
    assert c.dispatch({"type": "select", "card": "ZZ"}) is False
    assert c.ui.message == "That card does not exist." and c.state is state
    assert c.dispatch({"type": "no-such-thing"}) is False
    assert c.ui.message == "That action is not known to this page." and c.state is state
    assert c.dispatch({"type": "call", "right": True, "card": "<b>x</b>"}) is False
    assert c.state is state


def test_every_intent_of_the_vocabulary_has_its_handler() -> None:
    c = Controller()
    for kind, (owner, _) in intents.VOCABULARY.items():
        if owner == "table":
            assert callable(getattr(c, "_on_" + kind, None)), kind
    handlers = {n[4:] for n in dir(c) if n.startswith("_on_")}
    assert handlers <= set(intents.VOCABULARY)


def test_a_match_where_a_person_writes_the_rule_starts_with_that_person_writing() -> None:
    c = Controller()
    c.ui.setup = Setup(variant="express", dealer="writer", match=True)
    c.dispatch({"type": "start"})
    assert c.ui.screen == "write-rule" and c.writer_name() == "You"
    c.dispatch({"type": "rule_text", "value": RED})
    c.dispatch({"type": "rule_accept"})
    assert c.session is not None and c.session.state.config.dealer == 0


def test_a_deleted_saved_game_can_be_put_back() -> None:
    store = MemoryStorage()
    saves = Saves(store, clock=lambda: 1.0)
    c = Controller()
    c.dispatch({"type": "new-game", "variant": "solo"})
    assert c.session is not None
    saves.write(c.session.to_data(), "Solo")
    raw = saves.delete(c.session.id)
    assert raw is not None and saves.entries() == []
    assert saves.restore(c.session.id, raw)
    assert [e["id"] for e in saves.entries()] == [c.session.id]
    assert store.getItem(PREFIX + c.session.id) == raw


def test_a_damaged_link_is_explained_in_a_players_words() -> None:
    text, detail = link_problem("challenge", ValueError(
        "challenge format 0 is not known to this version (it reads format 1)"))
    assert "format 0" not in text and "another version of Eleusis" in text
    assert "format 0" in detail
    text, _ = link_problem("replay", ValueError("the replay is cut short"))
    assert text.startswith("This replay link cannot be opened") and "copy the whole" in text


def test_your_hand_and_the_pass_screen_read_well() -> None:
    c = Controller()
    c.ui.setup = Setup(variant="express", dealer="judge", dealer_name="Dealer",
                       seats=[SeatPlan("You", "you"), SeatPlan("Bo", "person")])
    c.dispatch({"type": "start"})
    vm = table_model(c)
    # the dealer holds no cards: their pass screen does not offer to show a hand
    assert vm.hidden and vm.pass_to == "Dealer" and vm.pass_then == "go on"


def test_a_link_to_a_hosted_page_cannot_fix_the_deal_or_tell_the_rule() -> None:
    from eleusis_web.session import url_presets

    hosted = url_presets({"variant": "royal", "pace": "fast", "seed": "42",
                          "rule": "card is red", "grace": "5"}, "eleusis.example.org")
    assert (hosted.variant, hosted.pace) == ("royal", "fast")  # harmless presets stay
    assert (hosted.seed, hosted.rule, hosted.grace) == (None, None, None)
    local = url_presets({"seed": "42", "rule": "card is red"}, "127.0.0.1")
    assert (local.seed, local.rule) == (42, "card is red")
    odd = url_presets({"variant": "<script>", "seed": "9" * 40, "pace": "warp"}, "localhost")
    assert (odd.variant, odd.seed, odd.pace) == (None, None, None)


def test_damaged_copies_are_offered_for_deletion() -> None:
    from eleusis_web.render import saves_panel
    from eleusis_web.storage import CORRUPT

    store = MemoryStorage()
    store.setItem(PREFIX + "g1", "{not json")
    saves = Saves(store)
    assert saves.entries() == [] and saves.notes  # set aside, with a note
    assert len(saves.corrupt_entries()) == 1
    panel = saves_panel((), saves.notes, damaged=len(saves.corrupt_entries()))
    button = panel.querySelector('[data-key="delete-damaged"]')
    assert button is not None and "1 damaged copy" in (button.getAttribute("aria-label") or "")
    assert saves.delete_corrupt() == 1 and store.getItem(CORRUPT + "g1") is None
    assert saves_panel((), ()).querySelector('[data-key="delete-damaged"]') is None


def test_a_guess_in_plain_english_is_read_back_and_judged_once_confirmed() -> None:
    alt = "card.color != prev.color"
    c = Controller(lambda: 12)
    c.ui.setup = Setup(variant="solo", rule=alt)
    c.dispatch({"type": "start"})
    c.dispatch({"type": "guess_open", "open": True})
    c.dispatch({"type": "guess_text", "value": "alternate colors"})
    guess = table_model(c).guess
    assert guess is not None and guess.reading is not None
    [(text, english)] = guess.reading.rules
    before = c.state
    assert c.dispatch({"type": "guess"}) is False  # not judged on a reading not confirmed
    assert c.state is before and "Guess this rule" in c.ui.message
    c.dispatch({"type": "guess", "value": text})  # "Guess this rule"
    assert c.state is not None and c.state.over  # right: Solo ends
    assert english and parse(text) is not None


def test_a_wrong_english_guess_is_judged_wrong_and_nonsense_gets_forms_to_try() -> None:
    c = Controller(lambda: 12)
    c.ui.setup = Setup(variant="solo", rule="card.color != prev.color")
    c.dispatch({"type": "start"})
    c.dispatch({"type": "guess_open", "open": True})
    c.dispatch({"type": "guess_text", "value": "red cards only"})
    guess = table_model(c).guess
    assert guess is not None and guess.reading is not None and len(guess.reading.rules) == 1
    c.dispatch({"type": "guess", "value": guess.reading.rules[0][0]})
    assert table_model(c).guess is not None
    assert table_model(c).guess.right is False  # type: ignore[union-attr]
    c.dispatch({"type": "guess_text", "value": "the vibes of the cards"})
    odd = table_model(c).guess
    assert odd is not None and odd.reading is not None and odd.reading.rules == ()
    assert odd.reading.message or odd.reading.suggestions


def test_royal_bets_are_chosen_by_marking_each_card_accepted_or_refused() -> None:
    c = Controller(lambda: 13)
    c.ui.setup = Setup(variant="royal", rule=RED, pace="instant")
    c.dispatch({"type": "start"})
    for _ in range(200):
        if c.state is not None and "bet" in legal_actions(c.state, 0).kinds:
            break
        c.computer_step()
    assert c.ui.viewer == 0 and c.state is not None

    def bet() -> object:
        return next(x for x in table_model(c).controls if x.key == "bet")

    assert not bet().enabled and "Choose the cards" in bet().reason  # type: ignore[attr-defined]
    hand = c.hand_tokens(0)
    for _, tok in hand[:4]:
        c.dispatch({"type": "select", "card": tok.split("#")[0]})
    assert bet().enabled  # type: ignore[attr-defined]  # four accepted: AAAA
    c.dispatch({"type": "bet_mark", "card": hand[0][1].split("#")[0]})
    c.dispatch({"type": "bet_mark", "card": hand[1][1].split("#")[0]})
    plan = table_model(c).bet_plan
    assert [accepted for _, _, accepted in plan] == [False, False, True, True]
    assert bet().enabled  # type: ignore[attr-defined]  # arranged: AARR
    c.dispatch({"type": "bet_mark", "card": hand[2][1].split("#")[0]})
    assert bet().enabled  # type: ignore[attr-defined]  # ARRR
    c.dispatch({"type": "select", "card": hand[3][1].split("#")[0]})  # three left: RRR
    assert not bet().enabled and bet().reason  # type: ignore[attr-defined]
    c.dispatch({"type": "select", "card": hand[3][1].split("#")[0]})
    before = len(c.state.events)
    c.dispatch({"type": "bet"})
    assert c.state is not None and len(c.state.events) > before and c.ui.selection == []


def test_the_rule_guide_opens_from_a_rule_field_and_its_examples_can_be_tried() -> None:
    from eleusis_web.render import help_screen
    from eleusis_web.rules_page import language_blocks
    from eleusis_web.viewmodel import rule_check

    c = Controller(lambda: 4)
    c.ui.setup = Setup(variant="solo", rule=RED)
    c.dispatch({"type": "start"})
    c.dispatch({"type": "guess_open", "open": True})
    c.dispatch({"type": "show_rule_help", "field": "guess_text"})
    assert c.ui.screen == "rule-help"
    guide = language_blocks()
    examples = [line.strip() for k, t in guide if k == "pre" for line in t.splitlines()
                if line.strip() and not rule_check(line.strip())[0]]
    assert len(examples) >= 5  # the guide's examples are rules that parse
    page = help_screen(guide, frozenset(examples))
    buttons = page.querySelectorAll(".try-example")
    assert len(buttons) == len(examples)
    c.dispatch({"type": "try_rule", "value": examples[0]})
    assert c.ui.screen == "table" and c.ui.guess_text == examples[0] and c.ui.guess_open


def test_the_notebook_takes_a_candidate_in_plain_english_as_it_was_read() -> None:
    from eleusis.notebook import Notebook
    from eleusis_web.intents import parse as parse_intent
    from eleusis_web.notebook_panel import apply_intent

    nb, draft, message = apply_intent(Notebook(), parse_intent({"type": "nb_add"}),
                                      "alternate colors")
    assert [e.text for e in nb.entries] == ["card.color != prev.color"] and draft == ""
    assert message.startswith("Read as card.color != prev.color")
    same, kept, why = apply_intent(nb, parse_intent({"type": "nb_add"}), "zzz qqq")
    assert same is nb and kept == "zzz qqq" and why.startswith("Not added")


def test_learn_to_play_guides_a_real_round_step_by_step_and_can_be_left() -> None:
    # the script plays a right card, then a wrong one: a deal (the page's own,
    # not a fixed seed) whose hand holds no card of that kind, one in a few
    # thousand, is dealt again rather than failing
    for _ in range(50):
        if _learn_to_play_round():
            return
    raise AssertionError("fifty lessons dealt without a right then a wrong card to play")


def _learn_to_play_round() -> bool:
    """The lesson, step by step (False: the deal allowed no right or no wrong first plays)."""
    from eleusis_web.tutorial import LESSON_RULE

    c = Controller()
    c.dispatch({"type": "learn_start"})
    assert c.session is not None and c.state is not None
    assert c.state.config.rule == LESSON_RULE and c.state.config.variant.value == "solo"
    steps = []

    def step() -> str:
        from eleusis_web.render import table_screen

        vm = table_model(c)
        coach = vm.coach
        assert coach is not None
        # every step draws, and rings the part of the table it talks about
        ringed = table_screen(vm).querySelector(".coach-target")
        assert (ringed is not None) == bool(coach.target), coach.step
        steps.append(coach.step)
        return coach.step

    assert step() == "intro" and table_model(c).coach.next_button  # type: ignore[union-attr]
    c.dispatch({"type": "lesson_next"})
    assert step() == "first-play"
    if find(c, True, LESSON_RULE) is None:
        return False
    c.dispatch(pick(c, True, LESSON_RULE))
    c.dispatch({"type": "play"})
    assert step() == "right"
    if find(c, False, LESSON_RULE) is None:
        return False
    c.dispatch(pick(c, False, LESSON_RULE))
    c.dispatch({"type": "play"})
    assert step() == "sideline"
    for _ in range(3):  # (from the fourth play on, right or wrong, the coach says guess)
        c.dispatch(pick(c, True, LESSON_RULE, any_card=True))
        c.dispatch({"type": "play"})
    assert step() == "guess"
    c.dispatch({"type": "guess_open", "open": True})
    c.dispatch({"type": "guess", "value": "card is red"})
    assert step() == "wrong-guess"
    c.dispatch({"type": "guess", "value": LESSON_RULE})
    assert c.state.over and c.ui.screen == "round-end"
    from eleusis_web.viewmodel import round_end_model

    assert "You found the secret rule" in round_end_model(c).lesson
    # the next game is a real one: a fresh rule, no lesson
    c.dispatch({"type": "show_setup"})
    c.dispatch({"type": "start"})
    assert table_model(c).coach is None and c.ui.setup.rule is None
    return True


def test_the_lesson_can_be_left_at_any_moment_and_the_round_goes_on() -> None:
    c = Controller()
    c.dispatch({"type": "learn_start"})
    assert table_model(c).coach is not None
    before = c.state
    c.dispatch({"type": "lesson_leave"})
    assert table_model(c).coach is None and c.state is before and c.ui.screen == "table"


def test_the_new_game_screen_says_which_table_sizes_the_rules_were_written_for() -> None:
    from eleusis_web.render import setup_screen
    from eleusis_web.viewmodel import setup_model

    c = Controller()
    for variant, words in (("new_eleusis", "4 players or more"), ("express", "3 to 8 players"),
                           ("royal", "4 to 8 players")):
        c.dispatch({"type": "setup_change", "field": "variant", "value": variant})
        screen = setup_screen(setup_model(c, [], []))
        assert words in screen.textContent, variant


def test_every_screen_renders_as_an_element_tree() -> None:
    """The renderer draws each screen from its view model alone (no browser needed)."""
    from eleusis_web import render, rules_page
    from eleusis_web.viewmodel import (
        round_end_model,
        setup_model,
        toolbar_model,
        write_rule_model,
    )

    c = Controller()
    setup = render.setup_screen(setup_model(c, [{"id": "g1", "title": "Solo"}], ["note"]))
    assert setup.querySelector('[data-key="start"]') is not None
    c.dispatch({"type": "learn_start"})
    table = render.table_screen(table_model(c))
    assert table.querySelector(".coach") is not None and table.querySelector(".hand")
    assert table.querySelector(".coach-target") is not None
    assert render.toolbar(toolbar_model(c, "Solo")).querySelector('[data-key="tb-new"]')
    c.dispatch({"type": "guess_open", "open": True})
    c.dispatch({"type": "guess_text", "value": "alternate colors"})
    assert render.table_screen(table_model(c)).querySelector(".reading") is not None
    c.dispatch({"type": "guess", "value": "card.color != prev.color"})
    assert render.round_end_screen(round_end_model(c, {})).querySelector("#re-title")
    hot = Controller()
    hot.ui.setup = Setup(variant="express", seats=[SeatPlan("You", "you"),
                                                   SeatPlan("Bo", "person")])
    hot.dispatch({"type": "start"})
    assert render.table_screen(table_model(hot)).querySelector(".pass-screen") is not None
    writer = Controller()
    writer.ui.setup = Setup(variant="express", dealer="writer")
    writer.dispatch({"type": "start"})
    writer.dispatch({"type": "writer_ready"})
    writer.dispatch({"type": "rule_text", "value": "red cards only"})
    editor = render.write_rule_screen(write_rule_model(writer))
    assert editor.querySelector(".reading") is not None
    assert render.help_screen(rules_page.blocks()).querySelector("#help-title") is not None
