"""A small virtual DOM: screens are built as Python trees, then patched into the page.

Why: the table redraws after every move (a person's click, each computer turn).
Rebuilding the page's elements each time replaced the element under the
pointer (a click landing during a redraw was lost), reset text fields (their
undo history, an IME composition) and cost one browser call per element.
Render functions therefore build :class:`El` trees, pure Python that pytest
can inspect without a browser, and :func:`patch` changes only what differs in
the live page: an element that stays keeps its node, its focus, its caret and
its pending click.

Children are matched by key first (``data-key``, then ``id``), then by tag in
order, so a card that stays in the hand keeps its button when other cards come
and go. A text field's value is written only when the page's own value differs
from the model's (the model follows every keystroke through an intent), so
typing never resets it.

The element API mirrors the few DOM methods render code uses (``appendChild``,
``insertBefore``, ``setAttribute``, ``classList``, ``querySelector`` on simple
selectors), so the same builder code reads like DOM code.

>>> box = El("div", {"class": "hand"})
>>> _ = box.appendChild(El("button", {"data-key": "c-QS"}, "Q♠"))
>>> box.querySelector('[data-key="c-QS"]').textContent
'Q♠'
>>> str(box)
'<div class="hand"><button data-key="c-QS">Q♠</button></div>'
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

#: Attributes kept as live properties of the element (the page's value wins
#: until the model says something else).
PROPS = frozenset({"value", "checked", "selected"})


class Text:
    """A text node."""

    __slots__ = ("node", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.node: Any = None

    def __repr__(self) -> str:
        return f"Text({self.text!r})"

    def __str__(self) -> str:
        return self.text.replace("&", "&amp;").replace("<", "&lt;")


class ClassList:
    """``el.classList`` for an :class:`El` (``add``, ``remove``, ``toggle``, ``contains``)."""

    __slots__ = ("_el",)

    def __init__(self, el: El) -> None:
        self._el = el

    def _names(self) -> list[str]:
        return (self._el.attrs.get("class") or "").split()

    def _set(self, names: list[str]) -> None:
        if names:
            self._el.attrs["class"] = " ".join(names)
        else:
            self._el.attrs.pop("class", None)

    def contains(self, name: str) -> bool:
        """Whether the element has class ``name``."""
        return name in self._names()

    def add(self, *names: str) -> None:
        """Add classes (once each)."""
        have = self._names()
        self._set(have + [n for n in names if n not in have])

    def remove(self, *names: str) -> None:
        """Remove classes."""
        self._set([n for n in self._names() if n not in names])

    def toggle(self, name: str, force: bool | None = None) -> bool:
        """Add or remove ``name`` (``force`` says which); return whether it is now there."""
        want = not self.contains(name) if force is None else force
        if want:
            self.add(name)
        else:
            self.remove(name)
        return want


class El:
    """An element: tag, attributes, live properties (``value``, ``checked``...), children."""

    __slots__ = ("attrs", "children", "node", "props", "tag")

    def __init__(self, tag: str, attrs: dict[str, str] | None = None,
                 *children: El | Text | str) -> None:
        self.tag = tag.lower()
        self.attrs: dict[str, str] = {}
        self.props: dict[str, Any] = {}
        self.children: list[El | Text] = []
        self.node: Any = None
        for key, value in (attrs or {}).items():
            self.setAttribute(key, value)
        for child in children:
            self.appendChild(child)

    # -- the DOM-like API ------------------------------------------------------------

    def setAttribute(self, key: str, value: object) -> None:
        """Set an attribute (``value``/``checked``/``selected`` become live properties)."""
        if key in PROPS:
            self.props[key] = value if key != "value" else str(value)
        else:
            self.attrs[key] = str(value)

    def getAttribute(self, key: str) -> str | None:
        """An attribute's value, or None."""
        return self.attrs.get(key)

    def removeAttribute(self, key: str) -> None:
        """Remove an attribute."""
        self.attrs.pop(key, None)

    def appendChild(self, child: El | Text | str) -> El | Text:
        """Append a child (a string becomes a text node); return it."""
        node = Text(child) if isinstance(child, str) else child
        self.children.append(node)
        return node

    def insertBefore(self, child: El | Text, ref: El | Text | None) -> El | Text:
        """Insert ``child`` before ``ref`` (at the end when ``ref`` is None)."""
        if ref is None:
            self.children.append(child)
        else:
            self.children.insert(self.children.index(ref), child)
        return child

    @property
    def classList(self) -> ClassList:
        """The class names, as the DOM's ``classList``."""
        return ClassList(self)

    @property
    def textContent(self) -> str:
        """All the text inside, as the DOM's ``textContent``."""
        return "".join(c.text if isinstance(c, Text) else c.textContent for c in self.children)

    @textContent.setter
    def textContent(self, value: str) -> None:
        self.children = [Text(str(value))] if value != "" else []

    @property
    def value(self) -> str:
        """The model's value of a field."""
        return str(self.props.get("value", ""))

    @value.setter
    def value(self, value: str) -> None:
        self.props["value"] = str(value)

    def elements(self) -> Iterator[El]:
        """The element children (no text nodes)."""
        return (c for c in self.children if isinstance(c, El))

    def walk(self) -> Iterator[El]:
        """This element and every element inside, in document order."""
        yield self
        for c in self.elements():
            yield from c.walk()

    def querySelectorAll(self, selector: str) -> list[El]:
        """Descendants matching a simple selector (see :func:`matcher`), in order."""
        match = matcher(selector)
        return [e for c in self.elements() for e in c.walk() if match(e, self)]

    def querySelector(self, selector: str) -> El | None:
        """The first descendant matching ``selector``, or None."""
        found = self.querySelectorAll(selector)
        return found[0] if found else None

    def find(self, pred: Callable[[El], bool]) -> El | None:
        """The first element (this one included) for which ``pred`` holds."""
        return next((e for e in self.walk() if pred(e)), None)

    # -- reading ---------------------------------------------------------------------

    @property
    def key(self) -> str | None:
        """What matches this element across redraws: ``data-key``, else ``id``."""
        return self.attrs.get("data-key") or self.attrs.get("id")

    def __repr__(self) -> str:
        return f"El({self.tag!r}, {self.attrs!r}, {len(self.children)} children)"

    def __str__(self) -> str:
        attrs = "".join(f' {k}="{v}"' for k, v in self.attrs.items())
        inner = "".join(str(c) for c in self.children)
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"


#: Elements with no end tag in HTML.
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                  "meta", "source", "track", "wbr"})


def to_html(node: El | Text) -> str:
    """An element tree as HTML text, every text and attribute value escaped.

    For pages written at build time (How to play, readable before Python is
    up). Live properties (a field's ``value``) are left out: they belong to
    the page's fields, not to a document.

    >>> to_html(El("p", {"title": 'say "hi"'}, "1 < 2 & ", El("code", {}, "<b>")))
    '<p title="say &quot;hi&quot;">1 &lt; 2 &amp; <code>&lt;b&gt;</code></p>'
    """
    if isinstance(node, Text):
        return html.escape(node.text, quote=False)
    attrs = "".join(f' {k}="{html.escape(v, quote=True)}"' for k, v in node.attrs.items())
    if node.tag in VOID:
        return f"<{node.tag}{attrs}>"
    inner = "".join(to_html(child) for child in node.children)
    return f"<{node.tag}{attrs}>{inner}</{node.tag}>"


# --------------------------------------------------------------------------- selectors

_PART = re.compile(
    r"""(?P<tag>[a-zA-Z][a-zA-Z0-9-]*)|\.(?P<cls>[\w-]+)|#(?P<id>[\w-]+)"""
    r"""|\[(?P<attr>[\w-]+)(?:=["']?(?P<val>[^"'\]]*)["']?)?\]""")


def _has_tag(tag: str) -> Callable[[El], bool]:
    return lambda e: e.tag == tag


def _has_class(name: str) -> Callable[[El], bool]:
    return lambda e: name in (e.attrs.get("class") or "").split()


def _has_attr(attr: str, val: str | None) -> Callable[[El], bool]:
    if val is None:
        return lambda e: attr in e.attrs or attr in e.props
    return lambda e: e.attrs.get(attr) == val


def _compound(text: str) -> Callable[[El], bool]:
    tests: list[Callable[[El], bool]] = []
    pos = 0
    while pos < len(text):
        m = _PART.match(text, pos)
        if m is None:
            raise ValueError(f"unsupported selector part {text[pos:]!r}")
        pos = m.end()
        if m.group("tag"):
            tests.append(_has_tag(m.group("tag").lower()))
        elif m.group("cls"):
            tests.append(_has_class(m.group("cls")))
        elif m.group("id"):
            tests.append(_has_attr("id", m.group("id")))
        else:
            tests.append(_has_attr(m.group("attr"), m.group("val")))
    return lambda e: all(t(e) for t in tests)


def matcher(selector: str) -> Callable[[El, El], bool]:
    """A test ``(element, scope) -> bool`` for a simple selector.

    Supported: tag, ``.class``, ``#id``, ``[attr]``, ``[attr="value"]`` in compounds,
    joined by descendant (space) or child (``>``) combinators; a leading
    ``:scope >`` anchors to the element searched from.
    """
    text = selector.strip()
    scoped = text.startswith(":scope")
    if scoped:
        text = text[len(":scope"):].strip()
    # A bracket stays whole, so ``[data-key="ctl-Guess the rule"]`` is one part.
    tokens = re.findall(r">|(?:\[[^\]]*\]|[^\s>\[])+", text)
    steps: list[tuple[str, Callable[[El], bool]]] = []  # (combinator before, test)
    comb = ">" if scoped and tokens and tokens[0] == ">" else " "
    for tok in tokens:
        if tok == ">":
            comb = ">"
            continue
        steps.append((comb, _compound(tok)))
        comb = " "

    def test(el: El, scope: El) -> bool:
        path = _path(scope, el)
        if path is None:
            return False
        return _match_path(path, steps, scoped)

    return test


def _path(scope: El, target: El) -> list[El] | None:
    """Ancestors of ``target`` below ``scope`` (scope first), ``target`` last."""
    if scope is target:
        return [scope]
    for c in scope.elements():
        sub = _path(c, target)
        if sub is not None:
            return [scope, *sub]
    return None


def _match_path(path: list[El], steps: list[tuple[str, Callable[[El], bool]]],
                scoped: bool) -> bool:
    # path[0] is the scope; the last step must match the target (path[-1])
    def rec(i: int, j: int) -> bool:  # steps[:i+1] matched with step i at path[j]
        comb, test = steps[i]
        if not test(path[j]):
            return False
        if i == 0:
            if comb == ">" and scoped:
                return j == 1
            return j >= 1
        prev = range(j - 1, j - 2, -1) if comb == ">" else range(j - 1, 0, -1)
        return any(rec(i - 1, k) for k in prev if k >= 1)

    return bool(steps) and rec(len(steps) - 1, len(path) - 1)


# --------------------------------------------------------------------------- patching


#: Builds a page subtree in one call (see :func:`create`): given the subtree as
#: JSON (:func:`spec`), it returns the new nodes in document order.
Builder = Callable[[str], Sequence[Any]]

#: Below this many nodes, a subtree is made node by node (the JSON costs more).
BUILD_MIN = 8


def spec(v: El | Text) -> object:
    """``v`` as plain data for a builder: a text is its string, an element
    ``[tag, [name, value, ...], [child, ...], [prop, value, ...]]``.

    >>> spec(El("p", {"class": "x"}, "a", El("b", None, "c")))
    ['p', ['class', 'x'], ['a', ['b', [], ['c'], []]], []]
    """
    if isinstance(v, Text):
        return v.text
    attrs = [x for kv in v.attrs.items() for x in kv]
    props = [x for k, val in v.props.items()
             for x in (k, str(val) if k == "value" else bool(val))]
    return [v.tag, attrs, [spec(c) for c in v.children], props]


def _nodes(v: El | Text) -> Iterator[El | Text]:
    """``v`` and every node inside, text nodes included, in document order."""
    yield v
    if isinstance(v, El):
        for c in v.children:
            yield from _nodes(c)


def create(doc: Any, v: El | Text, build: Builder | None = None) -> Any:
    """A new page node for ``v`` (and its children), remembered in ``v.node``.

    With a ``build`` (the page's ``eleusisBuild``), a subtree of
    :data:`BUILD_MIN` nodes or more is made in one call from its
    :func:`spec`: each browser call from Python costs far more than the work
    it asks for, and a screen drawn fresh (a game starting) has hundreds of
    elements. The builder only creates elements, sets attributes and adds
    text nodes, as this function does: nothing is read as HTML.
    """
    if build is not None and isinstance(v, El):
        order = list(_nodes(v))
        if len(order) >= BUILD_MIN:
            nodes = build(json.dumps(spec(v), ensure_ascii=False, separators=(",", ":")))
            if len(nodes) != len(order):
                raise RuntimeError(f"the builder made {len(nodes)} nodes for {len(order)}")
            for n, node in zip(order, nodes, strict=True):
                n.node = node
            return v.node
    if isinstance(v, Text):
        v.node = doc.createTextNode(v.text)
        return v.node
    node = doc.createElement(v.tag)
    for k, val in v.attrs.items():
        node.setAttribute(k, val)
    for c in v.children:
        node.appendChild(create(doc, c, build))
    for k, val in v.props.items():  # after the children: a select needs its options
        _set_prop(node, k, val)
    v.node = node
    return node


def _set_prop(node: Any, key: str, value: Any) -> None:
    if key == "value":
        if str(node.value) != str(value):
            node.value = str(value)
    elif bool(getattr(node, key)) != bool(value):
        setattr(node, key, bool(value))


def _update(doc: Any, old: El, new: El, build: Builder | None = None) -> None:
    node = old.node
    new.node = node
    for k in old.attrs:
        if k not in new.attrs:
            node.removeAttribute(k)
    for k, val in new.attrs.items():
        if old.attrs.get(k) != val:
            node.setAttribute(k, val)
    patch_children(doc, node, old.children, new.children, build)
    for k, val in new.props.items():
        # the page's own value (what the person typed) stays unless the model changed it
        if old.props.get(k) != val or k != "value":
            _set_prop(node, k, val)


def _match_key(v: El | Text) -> tuple[str, str] | None:
    if isinstance(v, El):
        key = v.key
        if key is not None:
            return (v.tag, key)
    return None


def patch_children(doc: Any, parent: Any, old: list[El | Text], new: list[El | Text],
                   build: Builder | None = None) -> None:
    """Make ``parent``'s children (drawn from ``old``) match ``new``, reusing nodes
    (new ones made by :func:`create`, with ``build`` when given)."""
    keyed: dict[tuple[str, str], El] = {}
    loose: dict[str, list[El | Text]] = {}
    for o in old:
        k = _match_key(o)
        if k is not None and k not in keyed:
            keyed[k] = o  # type: ignore[assignment]
        else:
            tag = o.tag if isinstance(o, El) else "#text"
            loose.setdefault(tag, []).append(o)
    used: set[int] = set()
    for n in new:
        k = _match_key(n)
        match: El | Text | None = None
        if k is not None and k in keyed:
            match = keyed.pop(k)
        elif k is None:
            tag = n.tag if isinstance(n, El) else "#text"
            queue = loose.get(tag)
            while queue:
                cand = queue.pop(0)
                if _match_key(cand) is None:
                    match = cand
                    break
        if match is None:
            create(doc, n, build)
        elif isinstance(n, Text):
            assert isinstance(match, Text)
            n.node = match.node
            if match.text != n.text:
                n.node.data = n.text
            used.add(id(match))
        else:
            assert isinstance(match, El)
            _update(doc, match, n, build)
            used.add(id(match))
    current = []
    for o in old:
        if id(o) in used:
            current.append(o.node)
        elif o.node is not None:
            parent.removeChild(o.node)
    for i, n in enumerate(new):
        if i < len(current) and current[i] is n.node:
            continue
        ref = current[i] if i < len(current) else None
        parent.insertBefore(n.node, ref)
        for j, node in enumerate(current):
            if node is n.node:
                del current[j]
                break
        current.insert(i, n.node)


class Mount:
    """A page element whose content is drawn from :class:`El` trees, patch by patch
    (new subtrees made in one call by ``build`` when given, see :func:`create`)."""

    def __init__(self, doc: Any, root: Any, build: Builder | None = None) -> None:
        self.doc = doc
        self.root = root
        self.build = build
        self.tree: list[El | Text] | None = None

    def draw(self, *content: El | Text) -> None:
        """Make the root hold ``content``, changing only what differs from the last draw."""
        new = list(content)
        if self.tree is None:
            self.root.replaceChildren()
            for n in new:
                self.root.appendChild(create(self.doc, n, self.build))
        else:
            patch_children(self.doc, self.root, self.tree, new, self.build)
        self.tree = new

    def find(self, pred: Callable[[El], bool]) -> El | None:
        """The first drawn element for which ``pred`` holds."""
        for top in self.tree or ():
            if isinstance(top, El):
                hit = top.find(pred)
                if hit is not None:
                    return hit
        return None


__all__ = ["BUILD_MIN", "PROPS", "Builder", "ClassList", "El", "Mount", "Text", "create",
           "matcher", "patch_children", "spec"]
