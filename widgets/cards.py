"""Card faces and backs as HTML, and clickable cards as plain ipywidgets Buttons.

Every face carries the card's spoken name (``card.name``: "seven of hearts")
as its ``aria-label`` and tooltip; red cards also get a double border and a
dotted band so colour is never the only signal. The style sheet ships in
``widgets/static/mathcards.css`` (no internet assets).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from importlib import resources
from typing import TYPE_CHECKING, Any

from mathcards.cards import MOON_COLOURS, MOON_SHAPES, RANK_TEXT, SUIT_SYMBOLS, Card
from mathcards.i18n import _, ngettext

if TYPE_CHECKING:
    from mathcards.table import CardState

__all__ = [
    "CardButton",
    "HandButtons",
    "card_back_html",
    "card_classes",
    "card_face_html",
    "esc",
    "pile_html",
    "stack_html",
    "style_html",
    "synced_states",
]


def esc(text: object) -> str:
    """``text`` as HTML text or an attribute's value (quotes escaped too)."""
    return html.escape(str(text), quote=True)


# Shoot the Moon cards: a shape per colour (``MOON_SHAPES``, as sentences write them), the
# Big and Little Moons their chip change and a mark (as the lesson pictures draw them)
SPECIAL_FACES = {"BIG": ("+1", "◉"), "LITTLE": ("−1", "◦")}


def card_classes(card: Card) -> tuple[str, ...]:
    """The CSS classes of a card face: colour group, suit and rank."""
    if card.is_joker:
        return ("mc-card", "mc-joker", "mc-sJK")
    if not card.is_standard:  # a Shoot the Moon card: its own colour, red rockets doubled
        colour = "mc-red" if card.suit == "R" else "mc-moon-ink"
        return ("mc-card", "mc-moon", colour, f"mc-s{card.suit}", f"mc-r{card.rank}")
    colour = "mc-red" if card.colour == "red" else "mc-black"
    return ("mc-card", colour, f"mc-s{card.suit}", f"mc-r{card.rank}")


def card_face_html(card: Card, *, landscape: bool = False, small: bool = False,
                   extra: str = "", label: str | None = None) -> str:
    """One face-up card: rank, suit symbol, spoken name as aria-label and tooltip."""
    classes = list(card_classes(card))
    if landscape:
        classes.append("mc-landscape")
    if small:
        classes.append("mc-small")
    if extra:
        classes.append(extra)
    spoken = esc(label or card.name)
    if card.is_joker:
        inner = ('<span class="mc-rank" aria-hidden="true">JOKER</span>'
                 '<span class="mc-pip" aria-hidden="true">★</span>')
    elif not card.is_standard:  # numbers 1-12 (no A, J, Q), or the Moons' chip change
        corner, mark = (SPECIAL_FACES.get(card.suit)
                        or (str(card.rank), MOON_SHAPES.get(card.suit, "")))
        inner = (f'<span class="mc-rank" aria-hidden="true">{esc(corner)}</span>'
                 f'<span class="mc-pip" aria-hidden="true">{esc(mark)}</span>')
    else:
        pip = SUIT_SYMBOLS.get(card.suit, "")
        inner = (f'<span class="mc-rank" aria-hidden="true">{esc(card.rank_text)}</span>'
                 f'<span class="mc-pip" aria-hidden="true">{pip}</span>')
    return (f'<span class="{" ".join(classes)}" role="img" aria-label="{spoken}" '
            f'title="{spoken}">{inner}</span>')


def card_back_html(*, small: bool = False, label: str = "") -> str:
    """A face-down card: a patterned back, spoken as ``label`` ("face-down card")."""
    label = label or _("face-down card")
    size = " mc-small" if small else ""
    return (f'<span class="mc-card mc-back{size}" role="img" aria-label="{esc(label)}" '
            f'title="{esc(label)}"></span>')


def backs_html(count: int, *, owner: str = "", limit: int = 8, own: bool = False) -> str:
    """A fan of card backs for a hidden hand: ``count`` cards, spoken as a number. The
    hand of this screen's own player (``own``) is drawn face up below the table: its seat
    says only how many cards it holds, no backs (they would push the hand off the screen)."""
    if own:
        shown_below = ngettext("{count} card, shown below", "{count} cards, shown below",
                               count).format(count=count)
        return f'<span class="mc-count mc-own-hand">{esc(shown_below)}</span>'
    label = (ngettext("{owner} holds {count} card", "{owner} holds {count} cards",
                      count).format(owner=owner, count=count) if owner else
             ngettext("{count} face-down card", "{count} face-down cards", count).format(
                 count=count))
    shown = min(count, limit)
    backs = "".join(card_back_html(small=True) for _i in range(shown))
    more = f'<span class="mc-count">+{count - shown}</span>' if count > shown else ""
    return (f'<span class="mc-row mc-backs" role="group" aria-label="{esc(label)}">'
            f'<span class="mc-sr">{esc(label)}</span>{backs}{more}</span>')


def stack_html(cards: tuple[Card, ...], *, label: str = "", special: bool = False) -> str:
    """A stack laid down: its cards overlapped top to bottom."""
    names = ", ".join(c.name for c in cards)
    spoken = f"{label}: {names}" if label else f"stack of {names}"
    faces = "".join(card_face_html(c, small=True) for c in cards)
    cls = "mc-stack mc-special" if special else "mc-stack"
    return f'<span class="{cls}" role="group" aria-label="{esc(spoken)}">{faces}</span>'


def pile_html(top: Card | None, count: int, *, label: str, face_down: bool = False) -> str:
    """A pile with its top card (or back) and its size underneath."""
    if count == 0 or (top is None and not face_down):
        empty = esc(_("empty"))
        face = (f'<span class="mc-card mc-empty" role="img" aria-label="{empty}" '
                'style="opacity:.3"></span>')
        spoken = _("{pile}: empty").format(pile=label)
    elif face_down or top is None:
        face = card_back_html(label=_("{pile}, face down").format(pile=label))
        spoken = ngettext("{pile}: {count} card face down", "{pile}: {count} cards face down",
                          count).format(pile=label, count=count)
    else:
        face = card_face_html(top)
        spoken = ngettext("{pile}: {count} card, top card {card}",
                          "{pile}: {count} cards, top card {card}", count).format(
            pile=label, count=count, card=top.name)
    under = ngettext("{pile} · {count} card", "{pile} · {count} cards", count).format(
        pile=label, count=count)
    return (f'<span class="mc-pile" role="group" aria-label="{esc(spoken)}">{face}'
            f'<span class="mc-count">{esc(under)}</span></span>')


def _button_rules() -> str:
    """CSS that draws rank and suit on a card Button whose text is its spoken name."""
    rules = []
    for rank in range(1, 14):
        text = RANK_TEXT.get(rank, str(rank))
        # the second declaration (alt text "") wins where supported, so the
        # screen reader speaks only the button's own text, the card's name
        rules.append(f'.mathcards .mc-cardbtn.mc-r{rank}::before{{content:"{text}";'
                     f'content:"{text}" / "";}}')
    for suit, sym in SUIT_SYMBOLS.items():
        rules.append(f'.mathcards .mc-cardbtn.mc-s{suit}::after{{content:"{sym}";'
                     f'content:"{sym}" / "";}}')
    rules.append('.mathcards .mc-cardbtn.mc-sJK::before{content:"JOKER";content:"JOKER" / "";'
                 'font-size:12px;}')
    rules.append('.mathcards .mc-cardbtn.mc-sJK::after{content:"★";content:"★" / "";}')
    # Shoot the Moon cards: numbers (1, 11 and 12 are not A, J, Q) and a shape per colour
    rules.extend(f'.mathcards .mc-cardbtn.mc-moon.mc-r{rank}::before{{content:"{rank}";'
                 f'content:"{rank}" / "";}}' for rank in (1, 11, 12))
    for suit in MOON_COLOURS:
        sym = MOON_SHAPES[suit]
        rules.append(f'.mathcards .mc-cardbtn.mc-s{suit}::after{{content:"{sym}";'
                     f'content:"{sym}" / "";}}')
    for suit, (corner, mark) in SPECIAL_FACES.items():
        rules.append(f'.mathcards .mc-cardbtn.mc-s{suit}::before{{content:"{corner}";'
                     f'content:"{corner}" / "";}}')
        rules.append(f'.mathcards .mc-cardbtn.mc-s{suit}::after{{content:"{mark}";'
                     f'content:"{mark}" / "";}}')
    return "\n".join(rules)


@lru_cache(maxsize=1)
def stylesheet() -> str:
    """The whole style sheet: the shipped CSS plus the card-button face rules."""
    css = resources.files("mathcards.widgets").joinpath("static/mathcards.css").read_text("utf-8")
    return css + "\n" + _button_rules()


def style_html() -> str:
    """A ``<style>`` element to put in an HTML widget at the top of a table."""
    return f"<style>{stylesheet()}</style>"


class CardButton:
    """A pooled Button drawn as a card; its text is the card's spoken name.

    Buttons are reused from move to move (only their traits change), so a
    click costs a few small trait updates instead of new widget views.
    """

    def __init__(self, on_click: Callable[[CardButton], None],
                 make: Callable[..., Any] | None = None, *, mark: str = "") -> None:
        import ipywidgets as W

        # ``make`` builds the Button (a table passes one that shares its layout); ``mark``
        # is one more class saying where the card is ("mc-hand-card": a guided hand's)
        self._base = ("mc-cardbtn", mark) if mark else ("mc-cardbtn",)
        self.button = (make or W.Button)(description="", disabled=True)
        self.button.add_class("mc-cardbtn")
        self.button.add_class("mc-hide")
        self.card: Card | None = None
        self.key: str | None = None
        self._on_click = on_click
        self.button.on_click(lambda _b: self._on_click(self))

    def show(self, card: Card, *, key: str, enabled: bool, tooltip: str = "",
             selected: bool = False) -> None:
        """Show ``card`` (face up) with its spoken name; ``tooltip`` adds why/what."""
        self.card = card
        self.key = key
        classes = list(self._base) + list(card_classes(card)[1:])
        if selected:
            classes.append("mc-selected")
        b = self.button
        name = card.name + (" (selected)" if selected else "")
        if b.description != name:
            b.description = name
        tip = f"{card.name}: {tooltip}" if tooltip else card.name
        if b.tooltip != tip:
            b.tooltip = tip
        if b.disabled == enabled:
            b.disabled = not enabled
        if list(b._dom_classes) != classes:
            b._dom_classes = classes

    def hide(self) -> None:
        """Hide the button and forget its card (nothing of it stays in a synced field)."""
        self.card = None
        self.key = None
        b = self.button
        if b.description:
            b.description = ""
        if b.tooltip:
            b.tooltip = ""
        if not b.disabled:
            b.disabled = True
        if list(b._dom_classes) != ["mc-cardbtn", "mc-hide"]:
            b._dom_classes = ["mc-cardbtn", "mc-hide"]


class HandButtons:
    """A hand drawn as ``CardButton``s in ``box``, from the controller's card states.

    Each button is made for one card of the hand ("7H#1": the first 7H) and
    never shows another, so a click always names the card it was made on
    (``holds``). The button of a card that left the hand is hidden (nothing
    of it stays in a synced field) and closed: at once with ``close_at_once``,
    else once many wait (a card back in the hand gets its button again).
    Without ``make`` the buttons share one layout and one style: their looks
    come from CSS classes, and each widget is a message to the page.
    """

    def __init__(self, box: Any, on_click: Callable[[CardButton], None], *,
                 make: Callable[..., Any] | None = None,
                 mark: str = "", close_at_once: bool = False) -> None:
        import ipywidgets as W

        self.box = box
        self._on_click = on_click
        self._make = make or partial(W.Button, layout=W.Layout(), style=W.ButtonStyle())
        self._mark = mark
        self._close_at_once = close_at_once
        self._by_ident: dict[str, CardButton] = {}
        self.pool: list[CardButton] = []  # the hand's buttons, in hand order

    def draw(self, states: Sequence[CardState], *, playing: bool = True) -> None:
        """Show one button per card state, in hand order (``playing=False``: all disabled)."""
        pool = []
        copies: dict[Card, int] = {}
        for shown in states:
            copies[shown.card] = copies.get(shown.card, 0) + 1
            ident = f"{shown.card}#{copies[shown.card]}"
            cb = self._by_ident.get(ident)
            if cb is None:
                cb = self._by_ident[ident] = CardButton(self._on_click, self._make, mark=self._mark)
            pool.append(cb)
        self.pool = pool
        children = [cb.button for cb in pool]
        if list(self.box.children) != children:
            self.box.children = children
        crowded = self._close_at_once or len(self._by_ident) > 4 * len(pool) + 24
        for ident, cb in list(self._by_ident.items()):
            if cb not in pool:
                cb.hide()  # no card of a hand stays in a synced field once off the table
                if crowded:  # (the layout and style are shared: they stay)
                    cb.button.close()
                    del self._by_ident[ident]
        for cb, shown in zip(pool, states, strict=True):
            cb.show(shown.card, key=shown.key, enabled=playing and shown.enabled,
                    selected=shown.selected, tooltip=shown.tooltip)

    def holds(self, button: CardButton) -> bool:
        """Whether ``button`` shows a card of the hand now (a click on it means something)."""
        return button in self.pool


def synced_states(root: object) -> list[dict[str, Any]]:
    """Every synced state of every widget under ``root`` (children, layouts, styles):
    what a Voilà visitor can read. The safety tests search it for hidden cards."""
    import ipywidgets as w

    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        current = stack.pop()
        if id(current) in seen or not isinstance(current, w.Widget):
            continue
        seen.add(id(current))
        out.append(current.get_state())
        for name in current.keys:
            value = getattr(current, name, None)
            items = value if isinstance(value, list | tuple) else [value]
            stack.extend(item for item in items if isinstance(item, w.Widget))
    return out
