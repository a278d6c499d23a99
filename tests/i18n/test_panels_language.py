"""The daily puzzle, the challenge and the notebook in Polish, drawn without a browser.

Each panel is rendered from its view model (the fake app of
``tests/web/test_panels.py``: storage in memory) with Polish in force, and
every text it shows -- text nodes, ``aria-label`` and ``title`` attributes,
the read-only share text, the announcements -- is compared with the English
messages of the catalogue whose Polish differs (as the browser test of the
languages does on the whole page): none may be left in English. The same
screens drawn in English must show such messages, so the check is known to
bite.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.i18n.catalogue_support import english_messages
from tests.web.test_panels import FakeApp

from eleusis.challenge import ComputerResult, compare_text
from eleusis.i18n import language, set_language
from eleusis.notebook import Notebook, evidence
from eleusis.views import view
from eleusis_web import challenge_view, daily_view, intents
from eleusis_web.notebook_panel import apply_intent, notebook_model, render_notebook
from eleusis_web.storage import DAILY
from eleusis_web.vdom import El, Text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["pl", "fr", "it"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each translated language in force for one test, English again after it."""
    set_language(request.param)
    try:
        yield request.param
    finally:
        set_language("en")


@pytest.fixture
def polish() -> Iterator[None]:
    """Polish in force for one test, English again after it."""
    set_language("pl")
    try:
        yield
    finally:
        set_language("en")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def shown(el: El) -> list[str]:
    """What a player reads or hears of ``el``: texts, labels, read-only fields' lines."""
    out = []
    for e in el.walk():
        out += [c.text.strip() for c in e.children if isinstance(c, Text) and c.text.strip()]
        out += [e.attrs[a].strip() for a in ("aria-label", "title") if e.attrs.get(a)]
        if e.props.get("readonly") or "readonly" in e.attrs:
            out += [line.strip() for line in e.value.splitlines() if line.strip()]
    return out


def panels_texts() -> list[str]:
    """Every text of the daily card and result, the challenge card, editor and result,
    and the notebook panel, in the language in force."""
    texts: list[str] = []
    # the daily card, with a damaged streak record (its message shown)
    app = FakeApp()
    app.store.setItem(DAILY, "{broken")
    app.c.ui.screen = "setup"
    app.settle()
    texts += shown(daily_view.render_entry(daily_view.entry_model(app)))
    # a daily game played to its end: the result and the announcements
    app.send({"type": "daily_start"})
    s = app.c.session
    assert s is not None and s.state.config.rule
    app.send({"type": "guess_open", "open": True})
    app.send({"type": "guess", "value": s.state.config.rule})
    result = daily_view.result_model(app)
    assert result is not None and not result.error
    texts += shown(daily_view.render_result(result))
    texts += [str(a) for a in app.c.announcements]
    # the challenge: its card, the editor (a rule, no name yet; then a link), the result
    texts += shown(challenge_view.render_entry())
    app.ui_extra.update(ch_rule="if prev is red then card is black else card is red",
                        ch_name=" ")
    texts += shown(challenge_view.render_writer(challenge_view.writer_model(app)))
    app.ui_extra.update(ch_rule="card is", ch_name="Ola", ch_link="https://example.org/#c=x")
    texts += shown(challenge_view.render_writer(challenge_view.writer_model(app)))
    rule = "card is red"
    texts += shown(challenge_view.render_result(challenge_view.ResultVM(
        challenge_view.DEFAULT_AUTHOR, rule, 0.4, "", "")))
    for solved, score in ((True, s.state.result.scores[0] - 1 if s.state.result else 0),
                          (False, 99)):
        r = ComputerResult("strong", solved, score, 12, 1, s.state)
        texts += shown(challenge_view.render_result(challenge_view.ResultVM(
            "Ola", rule, 1.0, compare_text(s.state, r), challenge_view.summary_text(r))))
    # the notebook: a rule that fits, one contradicted, one that is not a rule, a message
    ev = evidence(view(s.state, None))
    nb = Notebook().add("card is red or card is black").add("card is red and card is black")
    nb = nb.add("card is")
    _nb, _draft, message = apply_intent(nb, intents.parse({"type": "nb_add"}), "")
    texts += shown(render_notebook(notebook_model(nb, ev, "card is", None, message)))
    texts += shown(render_notebook(notebook_model(nb, ev, "prev is red", None, "")))
    return texts


def english_left(texts: list[str], lang: str) -> list[str]:
    """The texts that are an English message not translated into ``lang``."""
    messages = english_messages(lang)
    return [f"{t!r} (message {m!r})" for t in texts for p, m in messages if p.match(t)]


def test_the_daily_challenge_and_notebook_panels_have_no_english_left(lang: str) -> None:
    texts = panels_texts()
    assert language() == lang
    assert english_left(texts, lang) == []


def test_the_panels_in_polish_say_what_they_should(polish: None) -> None:
    texts = panels_texts()
    assert "Zagadka dnia" in texts
    assert any(t.startswith("Eleusis, zagadka dnia") for t in texts)  # the share text
    assert "Seria: 1 dzień · najlepsza 1" in texts
    assert any(t.startswith("Niezgodna z 1 werdyktem") for t in texts)  # a contradicted note
    assert any(t.startswith("twoja reguła odrzuca") for t in texts)  # and why
    assert "Karta może zostać zagrana, gdy poprzednia karta jest czerwona." in texts


def test_the_same_panels_in_english_are_caught_by_the_check() -> None:
    assert language() == "en"  # the previous tests' languages were given back
    left = english_left(panels_texts(), "pl")
    for message in ("Daily puzzle", "Notebook", "Challenge a friend", "Tick off rule {number}"):
        assert any(f"(message {message!r})" in x for x in left), message
