"""The virtual DOM's patching, on a fake document: what stays keeps its node."""

from __future__ import annotations

import json
from typing import Any

from eleusis_web.vdom import El, Mount, Text


class FakeNode:
    """Just enough of a DOM node to count what the patch does to the page."""

    def __init__(self, doc: FakeDoc, tag: str, text: str = "") -> None:
        self.doc = doc
        self.tag = tag
        self.attrs: dict[str, str] = {}
        self.children: list[FakeNode] = []
        self.parent: FakeNode | None = None
        self.data = text
        self.value = ""
        self.checked = False
        self.selected = False

    def setAttribute(self, k: str, v: str) -> None:
        self.doc.writes += 1
        self.attrs[k] = v

    def removeAttribute(self, k: str) -> None:
        self.doc.writes += 1
        self.attrs.pop(k, None)

    def _detach(self, child: FakeNode) -> None:
        if child.parent is not None:
            child.parent.children = [c for c in child.parent.children if c is not child]
        child.parent = self

    def appendChild(self, child: FakeNode) -> FakeNode:
        self.doc.writes += 1
        self._detach(child)
        self.children.append(child)
        return child

    def insertBefore(self, child: FakeNode, ref: FakeNode | None) -> FakeNode:
        self.doc.writes += 1
        self._detach(child)
        if ref is None:
            self.children.append(child)
        else:
            self.children.insert(next(i for i, c in enumerate(self.children) if c is ref), child)
        return child

    def removeChild(self, child: FakeNode) -> None:
        self.doc.writes += 1
        self.children = [c for c in self.children if c is not child]
        child.parent = None

    def replaceChildren(self) -> None:
        self.children = []

    def text(self) -> str:
        if self.tag == "#text":
            return self.data
        return "".join(c.text() for c in self.children)


class FakeDoc:
    def __init__(self) -> None:
        self.writes = 0
        self.created = 0

    def createElement(self, tag: str) -> FakeNode:
        self.created += 1
        return FakeNode(self, tag)

    def createTextNode(self, text: str) -> FakeNode:
        self.created += 1
        return FakeNode(self, "#text", text)


def hand(codes: list[str], selected: set[str] | None = None) -> El:
    box = El("div", {"class": "hand"})
    for code in codes:
        cls = "card selected" if selected and code in selected else "card"
        box.appendChild(El("button", {"data-key": f"card-{code}", "class": cls}, code))
    return box


def drawn(doc: FakeDoc, *trees: Any) -> tuple[Mount, FakeNode]:
    root = FakeNode(doc, "div")
    m = Mount(doc, root)
    for t in trees:
        m.draw(t)
    return m, root


def test_a_card_that_stays_keeps_its_element_when_others_come_and_go() -> None:
    doc = FakeDoc()
    m, root = drawn(doc, hand(["2H", "5S", "KD"]))
    five = root.children[0].children[1]
    m.draw(hand(["AH", "5S", "KD", "9C"], selected={"5S"}))
    box = root.children[0]
    assert [c.text() for c in box.children] == ["AH", "5S", "KD", "9C"]
    assert box.children[1] is five  # the same button: a click on it is not lost
    assert five.attrs["class"] == "card selected"


def test_a_redraw_with_nothing_changed_writes_nothing() -> None:
    doc = FakeDoc()
    m, _ = drawn(doc, hand(["2H", "5S"]))
    doc.writes = 0
    doc.created = 0
    m.draw(hand(["2H", "5S"]))
    assert (doc.writes, doc.created) == (0, 0)


def test_reordered_keyed_children_move_and_keep_their_nodes() -> None:
    doc = FakeDoc()
    m, root = drawn(doc, hand(["A", "B", "C", "D"]))
    nodes = {c.text(): c for c in root.children[0].children}
    m.draw(hand(["D", "B", "A", "C"]))
    after = root.children[0].children
    assert [c.text() for c in after] == ["D", "B", "A", "C"]
    assert all(c is nodes[c.text()] for c in after)


def test_a_typed_value_is_not_written_back_over_the_field() -> None:
    doc = FakeDoc()
    m, root = drawn(doc, El("input", {"data-key": "guess", "value": ""}))
    field = root.children[0]
    field.value = "card is r"  # the person typed; the model follows through an intent
    m.draw(El("input", {"data-key": "guess", "value": "card is r"}))
    assert field.value == "card is r"
    field.value = "card is re"  # typed again, the model not yet told: left alone
    m.draw(El("input", {"data-key": "guess", "value": "card is r"}))
    assert field.value == "card is re"
    m.draw(El("input", {"data-key": "guess", "value": ""}))  # the model clears it
    assert field.value == ""


def test_text_changes_in_place_and_removed_elements_go() -> None:
    doc = FakeDoc()
    m, root = drawn(doc)
    m.draw(El("p", {}, "Turn 1"), El("span", {"id": "x"}, "gone soon"))
    p = root.children[0]
    m.draw(El("p", {}, "Turn 2"))
    assert root.children == [p] and p.text() == "Turn 2"


def test_unkeyed_children_of_another_tag_are_replaced() -> None:
    doc = FakeDoc()
    m, root = drawn(doc, El("div", {}, El("p", {}, "a"), Text("b")))
    m.draw(El("div", {}, El("h2", {}, "a"), Text("b")))
    assert [c.tag for c in root.children[0].children] == ["h2", "#text"]


def test_selectors_on_trees() -> None:
    tree = El("section", {"class": "round-end"},
              El("div", {"class": "controls"}, El("button", {"data-key": "again"})),
              El("ol", {"class": "layout"}, El("li", {"data-col": "0"},
                                                El("div", {"class": "card mainline-card"}))))
    assert tree.querySelector(":scope > .controls") is tree.children[0]
    assert tree.querySelector('.layout li[data-col="0"] .mainline-card') is not None
    assert tree.querySelector(":scope > .mainline-card") is None
    assert len(tree.querySelectorAll("[data-key]")) == 1
    tree.children[1].attrs["id"] = "layout"
    assert tree.querySelector("#layout") is tree.children[1]
    assert tree.querySelector("ol#layout li") is not None
    tree.children[0].children[0].attrs["data-key"] = "ctl-Guess the rule"
    assert tree.querySelector('[data-key="ctl-Guess the rule"]') is tree.children[0].children[0]
    assert tree.querySelector('.controls > [data-key="ctl-Guess the rule"]') is not None


class FakeBuilder:
    """The page's ``eleusisBuild`` on the fake document: nodes from the JSON spec
    (text, or ``[tag, [name, value...], [children], [prop, value...]]``), in document
    order; it counts its calls."""

    def __init__(self, doc: FakeDoc) -> None:
        self.doc = doc
        self.calls = 0

    def __call__(self, text: str) -> list[FakeNode]:
        self.calls += 1
        out: list[FakeNode] = []

        def make(s: Any) -> FakeNode:
            if isinstance(s, str):
                node = self.doc.createTextNode(s)
                out.append(node)
                return node
            tag, attrs, children, props = s
            node = self.doc.createElement(tag)
            out.append(node)
            for i in range(0, len(attrs), 2):
                node.setAttribute(attrs[i], attrs[i + 1])
            for c in children:
                node.appendChild(make(c))
            for i in range(0, len(props), 2):
                setattr(node, props[i], props[i + 1])
            return node

        make(json.loads(text))
        return out


def screen(name: str, cards: list[str]) -> El:
    fast = El("option", {"value": "fast"}, "Fast")
    fast.props["selected"] = True
    return El("div", {"data-key": f"screen-{name}"}, El("h2", {}, name.title()),
              El("select", {"id": "pace"}, El("option", {"value": "slow"}, "Slow"), fast),
              hand(cards))


def test_a_new_screen_is_made_in_one_builder_call_and_then_patched_like_any_other() -> None:
    doc = FakeDoc()
    build = FakeBuilder(doc)
    root = FakeNode(doc, "div")
    m = Mount(doc, root, build)
    m.draw(screen("setup", []))
    m.draw(screen("table", ["2H", "5S", "KD"]))  # another key: made afresh
    assert build.calls == 2
    top = root.children
    assert len(top) == 1 and top[0].attrs["data-key"] == "screen-table"
    assert top[0].text() == "TableSlowFast2H5SKD"
    options = top[0].children[1].children
    assert [o.selected for o in options] == [False, True]  # a live property, not an attribute
    assert [o.value for o in options] == ["slow", "fast"]
    # every element drawn knows its own node: a redraw patches in place
    five = top[0].children[2].children[1]
    doc.writes = doc.created = 0
    m.draw(screen("table", ["AH", "5S", "KD"]))
    assert top[0].children[2].children[1] is five
    assert [c.text() for c in top[0].children[2].children] == ["AH", "5S", "KD"]
    assert doc.created == 2 and build.calls == 2  # one new card: too small for the builder


def test_the_builder_and_the_node_by_node_way_draw_the_same_page() -> None:
    def page(build: bool) -> str:
        doc = FakeDoc()
        root = FakeNode(doc, "div")
        Mount(doc, root, FakeBuilder(doc) if build else None).draw(
            screen("table", ["2H", "QS"]))

        def show(n: FakeNode) -> str:
            if n.tag == "#text":
                return n.data
            props = "".join(f" .{k}" for k in ("checked", "selected") if getattr(n, k))
            inner = "".join(show(c) for c in n.children)
            return f"<{n.tag} {sorted(n.attrs.items())}{props} {n.value!r}>{inner}</{n.tag}>"

        return "".join(show(c) for c in root.children)

    assert page(True) == page(False)
