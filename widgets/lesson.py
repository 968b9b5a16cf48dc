"""Pictures and page pieces for the lessons: cards drawn as inline SVG, the
landing page, and the step-through player for worked examples.

Everything here is drawn on the server as plain HTML/SVG text (no images are
fetched), so a lesson looks the same in Voilà, in JupyterLab and offline.
Pictures carry a text label (``aria-label``/``<title>``) a screen reader
speaks, and colour is never the only cue: every card shows its suit symbol.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from mathcards.cards import Card, as_card, parse_cards

RED = "#c62828"
BLACK = "#212121"
MOON_FILL = {"R": "#d32f2f", "G": "#2e7d32", "P": "#6a1b9a", "B": "#1565c0"}
# Shapes of the Shoot the Moon suits, so the colour is never the only cue.
MOON_SHAPE = {"R": "▲", "G": "☾", "P": "★", "B": "●"}
SPECIAL_FILL = "#ef6c00"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def cards_of(cards: str | Card | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from text (``"7H 4S"``), one Card, or a list of either."""
    if isinstance(card := cards, Card):
        return (card,)
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(as_card(c) for c in cards)


def card_svg(card: str | Card, *, width: int = 54, turned: bool = False, label: str = "") -> str:
    """One card as an inline SVG picture with a spoken label.

    ``turned`` draws it lying across (a subtracted card in Suns to Moons).
    """
    card = as_card(card)
    w, h = 50, 70
    name = label or card.name
    if card.is_standard:
        ink = RED if card.colour == "red" else BLACK
        face, corner, mark, fill = "#ffffff", card.rank_text, card.symbol[-1], ink
    elif card.is_moon_card:
        ink = fill = MOON_FILL[card.suit]
        face, corner, mark = "#ffffff", str(card.rank), MOON_SHAPE[card.suit]
    elif card.is_joker:
        ink, fill, face, corner, mark = "#4a148c", "#4a148c", "#fff8e1", "JK", "☺"
    else:  # Big and Little Moons
        ink, face, fill = "#ffffff", SPECIAL_FILL, "#ffffff"
        corner = "+1" if card.is_big_moon else "−1"
        mark = "◉" if card.is_big_moon else "◦"
    big = 30 if len(mark) == 1 else 16
    body = (
        f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="5" fill="{face}" '
        f'stroke="#757575" stroke-width="1.5"/>'
        f'<text x="5" y="15" font-size="13" font-weight="700" fill="{ink}" '
        f'font-family="sans-serif">{_esc(corner)}</text>'
        f'<text x="{w / 2}" y="{h / 2 + 11}" font-size="{big}" text-anchor="middle" '
        f'fill="{fill}" font-family="sans-serif">{_esc(mark)}</text>'
    )
    if card.is_big_moon or card.is_little_moon:
        word = "BIG" if card.is_big_moon else "little"
        body += (
            f'<text x="{w / 2}" y="{h - 7}" font-size="10" text-anchor="middle" '
            f'fill="#ffffff" font-family="sans-serif">{word}</text>'
        )
    height = round(width * h / w)
    if turned:
        return (
            f'<svg role="img" aria-label="{_esc(name)}, turned" width="{height}" '
            f'height="{width}" viewBox="0 0 {h} {w}" style="vertical-align:middle">'
            f"<title>{_esc(name)}, turned</title>"
            f'<g transform="translate({h} 0) rotate(90)">{body}</g></svg>'
        )
    return (
        f'<svg role="img" aria-label="{_esc(name)}" width="{width}" height="{height}" '
        f'viewBox="0 0 {w} {h}" style="vertical-align:middle"><title>{_esc(name)}</title>'
        f"{body}</svg>"
    )


def card_row(
    cards: str | Card | Iterable[str | Card],
    *,
    width: int = 54,
    turned: Sequence[bool] = (),
    captions: Sequence[str] = (),
) -> str:
    """A row of card pictures, optionally each with a caption under it."""
    items = []
    for i, card in enumerate(cards_of(cards)):
        svg = card_svg(card, width=width, turned=i < len(turned) and turned[i])
        caption = (
            f'<div style="font-size:0.85em;text-align:center">{_esc(captions[i])}</div>'
            if i < len(captions)
            else ""
        )
        items.append(f'<div style="display:inline-block;margin:2px 4px">{svg}{caption}</div>')
    return f'<div class="mc-card-row" style="margin:4px 0">{"".join(items)}</div>'


def dice_svg(value: int, *, size: int = 34) -> str:
    """A die showing ``value`` (1-6) with its pips."""
    if not 1 <= value <= 6:
        raise ValueError(f"a die shows 1 to 6, not {value}")
    spots = {
        1: [(2, 2)],
        2: [(1, 1), (3, 3)],
        3: [(1, 1), (2, 2), (3, 3)],
        4: [(1, 1), (3, 1), (1, 3), (3, 3)],
        5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
        6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)],
    }[value]
    pips = "".join(
        f'<circle cx="{x * 10}" cy="{y * 10}" r="3.2" fill="#212121"/>' for x, y in spots
    )
    return (
        f'<svg role="img" aria-label="a die showing {value}" width="{size}" height="{size}" '
        f'viewBox="0 0 40 40" style="vertical-align:middle"><title>die: {value}</title>'
        f'<rect x="1" y="1" width="38" height="38" rx="7" fill="#ffffff" stroke="#757575" '
        f'stroke-width="1.5"/>{pips}</svg>'
    )


# --- the landing page -----------------------------------------------------------
@dataclass(frozen=True)
class GameCard:
    """One game on the landing page: what it is, what it practises, where to go."""

    name: str
    title: str
    practises: str
    blurb: str
    picture: Callable[[], str]
    lesson: str
    play: str | None
    play_text: str = "Play"


def _suns_picture() -> str:
    return card_row("7H 4S 9D", width=40, turned=(True, False, True))


def _stacks_picture() -> str:
    return dice_svg(3) + " " + dice_svg(5) + card_row("6C 2H", width=40)


def _sums_picture() -> str:
    return card_row("9H 4D 5H", width=40)


def _shoot_picture() -> str:
    return card_row("G7 R3 BIG", width=40)


def _planets_picture() -> str:
    return card_row("9H 8H", width=40) + card_row("5S 6S 7C", width=34)


GAMES: tuple[GameCard, ...] = (
    GameCard(
        "suns_to_moons",
        "Suns to Moons",
        "adding positive and negative numbers",
        "Lay each card across to add it or upright to subtract it, and steer the "
        "deck's value to the goal without passing 10 or −10.",
        _suns_picture,
        "suns_to_moons.ipynb",
        "play_suns_to_moons.ipynb",
    ),
    GameCard(
        "dice_stacks",
        "Dice Stacks",
        "adding, subtracting, doubling and halving",
        "Roll two dice, then build stacks of cards that make the dice total: add "
        "them or subtract them, and let Kings double or halve.",
        _stacks_picture,
        "dice_stacks.ipynb",
        "play_dice_stacks.ipynb",
    ),
    GameCard(
        "sums",
        "Sums",
        "sums and differences",
        "Play a card; if it plus or minus one of your cards equals an opponent's "
        "card of the same colour, you capture it.",
        _sums_picture,
        "sums.ipynb",
        "play_sums.ipynb",
    ),
    GameCard(
        "shoot_the_moon",
        "Shoot the Moon",
        "comparing numbers and odd or even",
        "A trick game: follow the colour, red rockets trump, the Big Moon always "
        "wins. Take an odd number of tricks to earn a chip.",
        _shoot_picture,
        "shoot_the_moon.ipynb",
        None,
    ),
    GameCard(
        "moons_and_planets",
        "Moons and Planets",
        "sums to 15–18 and runs",
        "Put down a planet (cards of one suit adding to 15–18), then moons: runs "
        "and sets. Win prizes in tricks; first to empty their hand wins.",
        _planets_picture,
        "moons_and_planets.ipynb",
        None,
    ),
)

TEACHERS_GUIDE = "teachers.ipynb"

_LANDING_STYLE = (
    "<style>"
    ".mc-games{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));"
    "gap:16px;margin:12px 0}"
    ".mc-game{border:1px solid var(--jp-border-color1,#bdbdbd);border-radius:10px;"
    "padding:12px 16px;background:var(--jp-layout-color1,#fff);"
    "color:var(--jp-ui-font-color1,#212121)}"
    ".mc-game h2{margin:0 0 4px 0;font-size:1.35em}"
    ".mc-game .mc-practises{font-weight:600;margin:2px 0 6px 0}"
    ".mc-game a.mc-button{display:inline-block;margin:6px 8px 0 0;padding:6px 14px;"
    "border-radius:6px;border:2px solid var(--jp-brand-color1,#1976d2);"
    "text-decoration:none;font-weight:600;color:var(--jp-brand-color1,#1976d2)}"
    ".mc-game a.mc-button:focus,.mc-game a.mc-button:hover{outline:3px solid #ffb300;"
    "outline-offset:2px}"
    "</style>"
)


def landing_markdown() -> str:
    """The landing page's main cell (Markdown with HTML), one card per game.

    It is Markdown, not an output, so Voilà draws it on the server: the links
    open in the same tab, and they are relative (``dice_stacks.ipynb``) so
    they work under ``make play``, on a JupyterHub and in JupyterLab alike.
    ``tests/test_notebooks.py`` checks ``lessons/index.ipynb`` holds exactly this.
    """
    cards = []
    for game in GAMES:
        links = f'<a class="mc-button" href="{game.lesson}">Learn</a>'
        if game.play:
            links += f'<a class="mc-button" href="{game.play}">{game.play_text}</a>'
        cards.append(
            f'<section class="mc-game" id="game-{game.name}" aria-label="{_esc(game.title)}">'
            f"<h2>{_esc(game.title)}</h2>"
            f'<div class="mc-practises">Practises: {_esc(game.practises)}</div>'
            f"<div>{game.picture()}</div>"
            f"<p>{_esc(game.blurb)}</p>"
            f"<div>{links}</div>"
            "</section>"
        )
    return _LANDING_STYLE + '<div class="mc-games">' + "".join(cards) + "</div>"


# --- worked examples, one step at a time -----------------------------------------
def step_html(text: str, latex: str = "") -> str:
    """One step of a worked example: the maths (LaTeX) and the same in words."""
    maths = f"<div>$${latex}$$</div>" if latex else ""
    return f'{maths}<div class="mc-step-text">{_esc(text)}</div>'
