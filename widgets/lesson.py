"""Pictures and page pieces for the lessons: cards drawn as inline SVG, the
landing page, and the step-through player for worked examples.

Everything here is drawn on the server as plain HTML/SVG text (no images are
fetched), so a lesson looks the same in Voilà, in JupyterLab and offline.
Pictures carry a text label (``aria-label``/``<title>``) a screen reader
speaks, and colour is never the only cue: every card shows its suit symbol.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mathcards.cards import MOON_SHAPES, Card, as_card, cards_shown, parse_cards
from mathcards.i18n import _, ngettext
from mathcards.widgets.cards import SPECIAL_FACES, CardButton, HandButtons, esc, synced_states

RED = "#c62828"
BLACK = "#212121"
MOON_FILL = {"R": "#d32f2f", "G": "#2e7d32", "P": "#6a1b9a", "B": "#1565c0"}
SPECIAL_FILL = "#ef6c00"


def cards_of(cards: str | Card | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from text (``"7H 4S"``), one Card, or a list of either."""
    if isinstance(card := cards, Card):
        return (card,)
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(as_card(c) for c in cards)  # type: ignore[union-attr]  # a Card returned above


def card_svg(card: str | Card, *, width: int = 54, turned: bool = False, label: str = "") -> str:
    """One card as an inline SVG picture with a spoken label.

    ``turned`` draws it lying across (a landscape card): in Suns to Moons a card
    across is added (+) and an upright card subtracted (−), as the seed says
    (the rule book's "+ horizontal, − vertical"; ``suns_to_moons.lies_across`` decides).
    Only the card's outline turns: its rank and suit stay upright, so a 6 never
    reads as a 9. ``width`` is the short side in both cases.
    """
    card = as_card(card)
    w, h = (78, 56) if turned else (56, 78)  # the table's card face (.mc-card), in SVG
    name = (_("{card}, turned").format(card=label or card.name) if turned
            else (label or card.name))
    # the same drawing as the table's card faces (widgets/cards.py): the rank large at
    # the top left, the suit at the bottom right, red cards in a red double border,
    # black in a black one, the Joker dashed; Shoot the Moon cards their shape per colour
    double = False
    dash = ""
    if card.is_standard:
        ink = RED if card.colour == "red" else BLACK
        face, corner, mark, fill = "#ffffff", card.rank_text, card.symbol[-1], ink
        double = card.colour == "red"
    elif card.is_moon_card:
        ink = fill = MOON_FILL[card.suit]
        face, corner, mark = "#ffffff", str(card.rank), MOON_SHAPES[card.suit]
    elif card.is_joker:
        ink, fill, face, corner, mark = "#5b2a86", "#5b2a86", "#f7f0ff", "JOKER", "★"
        dash = ' stroke-dasharray="4 3"'
    else:  # Big and Little Moons
        ink, face, fill = "#ffffff", SPECIAL_FILL, "#ffffff"
        corner, mark = SPECIAL_FACES[card.suit]
    rank_size = 11 if len(corner) > 3 else 21
    body = (
        f'<rect x="1.5" y="1.5" width="{w - 3}" height="{h - 3}" rx="7" fill="{face}" '
        f'stroke="{ink if card.is_standard or card.is_joker else "#333333"}" '
        f'stroke-width="{1.2 if double else 2}"{dash}/>'
    )
    if double:  # the red double border of the table's red cards
        body += (f'<rect x="4.5" y="4.5" width="{w - 9}" height="{h - 9}" rx="5" fill="none" '
                 f'stroke="{ink}" stroke-width="1.2"/>')
    body += (
        f'<text x="7" y="{8 + rank_size}" font-size="{rank_size}" font-weight="700" '
        f'fill="{ink}" font-family="sans-serif">{esc(corner)}</text>'
        f'<text x="{w - 7}" y="{h - 8}" font-size="26" font-weight="700" text-anchor="end" '
        f'fill="{fill}" font-family="sans-serif">{esc(mark)}</text>'
    )
    long_side = round(width * 78 / 56)
    size_w, size_h = (long_side, width) if turned else (width, long_side)
    return (
        f'<svg role="img" aria-label="{esc(name)}" width="{size_w}" height="{size_h}" '
        f'viewBox="0 0 {w} {h}" style="vertical-align:middle;max-width:100%;height:auto">'
        f"<title>{esc(name)}</title>{body}</svg>"
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
            f'<div style="font-size:0.85em;text-align:center">{esc(captions[i])}</div>'
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
    showing, title = _("a die showing {n}").format(n=value), _("die: {n}").format(n=value)
    return (
        f'<svg role="img" aria-label="{esc(showing)}" width="{size}" height="{size}" '
        f'viewBox="0 0 40 40" style="vertical-align:middle"><title>{esc(title)}</title>'
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


def suns_picture() -> str:
    from mathcards.games.suns_to_moons import lies_across

    # 7 + ... − 4 + 9: the centre card and the added card across, the subtracted one upright
    return card_row("7H 4S 9D", width=40, turned=tuple(lies_across(s) for s in (1, -1, 1)))


def stacks_picture() -> str:
    return dice_svg(3) + " " + dice_svg(5) + card_row("6C 2H", width=40)


def sums_picture() -> str:
    return card_row("9H 4D 5H", width=40)


def shoot_picture() -> str:
    return card_row("G7 R3 BIG", width=40)


def planets_picture() -> str:
    return card_row("9H 8H", width=40) + card_row("5S 6S 7C", width=34)


def game_cards() -> tuple[GameCard, ...]:
    """The landing page's cards: every registered game that has one (``GameSpec.card``),
    in the registry's order."""
    from mathcards.games.registry import game_specs, resolve

    return tuple(
        GameCard(spec.name, spec.title, spec.card.practises, spec.card.blurb,
                 resolve(spec.card.picture), spec.card.lesson, spec.card.play or None,
                 spec.card.play_text)
        for spec in game_specs() if spec.card is not None)


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


def landing_markdown(lang: str = "") -> str:
    """The landing page's main cell (Markdown with HTML), one card per game.

    It is Markdown, not an output, so Voilà draws it on the server: the links
    open in the same tab, and they are relative (``dice_stacks.ipynb``) so
    they work under ``make play``, on a JupyterHub and in JupyterLab alike.
    ``tests/test_notebooks.py`` checks ``lessons/index.ipynb`` holds exactly this.

    With ``lang`` (``"es"``), the landing page of ``lessons/<lang>/``: its words in that
    language, each game's lesson there (``sums.ipynb?lang=es``: every registered game
    has one, ``tests/test_notebooks.py``) and its play page there too
    (``play_sums.ipynb?lang=es``); ``lessons/es/index.ipynb`` holds it.
    """
    from mathcards.i18n import using

    if lang:
        with using(lang):
            return _landing_cards(lambda page: f"{page}?lang={lang}",
                                  lambda page: f"{page}?lang={lang}")
    return _landing_cards(str, str)


def _landing_cards(lesson_link: Callable[[str], str], play_link: Callable[[str], str]) -> str:
    from mathcards.i18n import gettext as _

    learn = esc(_("Learn"))
    cards = []
    for game in game_cards():
        practises = esc(_("Practises: {skills}").format(skills=_(game.practises)))
        links = f'<a class="mc-button" href="{esc(lesson_link(game.lesson))}">{learn}</a>'
        if game.play:
            links += (f'<a class="mc-button" href="{esc(play_link(game.play))}">'
                      f"{esc(_(game.play_text))}</a>")
        cards.append(
            f'<section class="mc-game" id="game-{game.name}" aria-label="{esc(game.title)}">'
            f"<h2>{esc(game.title)}</h2>"
            f'<div class="mc-practises">{practises}</div>'
            f"<div>{game.picture()}</div>"
            f"<p>{esc(_(game.blurb))}</p>"
            f"<div>{links}</div>"
            "</section>"
        )
    return _LANDING_STYLE + '<div class="mc-games">' + "".join(cards) + "</div>"


# --- worked examples, one step at a time -----------------------------------------
def step_html(text: str, latex: str = "") -> str:
    """One step of a worked example: the maths (LaTeX) and the same in words."""
    maths = f"<div>$${latex}$$</div>" if latex else ""
    return f'{maths}<div class="mc-step-text">{esc(text)}</div>'


class StepThrough:
    """A worked example played move by move: Back / Next and the step shown.

    ``steps`` are ``(text, latex)`` pairs (or explainer ``Step`` objects, which
    have ``.text`` and ``.latex``); ``pictures`` an optional card picture per step.
    """

    def __init__(self, steps: Sequence[Any], pictures: Sequence[str] = (), title: str = "") -> None:
        import ipywidgets as w

        self.steps = [(s.text, s.latex) if hasattr(s, "latex") else tuple(s) for s in steps]
        if not self.steps:
            raise ValueError("a worked example needs at least one step")
        self.pictures = list(pictures)
        self.position = 0
        self.back = w.Button(description=_("◀ Back"), tooltip=_("previous step"))
        self.next = w.Button(description=_("Next ▶"), tooltip=_("next step"))
        self.back.on_click(lambda _b: self.go(self.position - 1))
        self.next.on_click(lambda _b: self.go(self.position + 1))
        self.counter = w.HTML()
        self.shown = w.HTMLMath()
        self.shown.add_class("mc-step-shown")
        header = [w.HTML(value=f"<b>{esc(title)}</b>")] if title else []
        self.widget = w.VBox(
            [*header, w.HBox([self.back, self.next, self.counter]), self.shown]
        )
        self.go(0)

    def go(self, position: int) -> None:
        """Show step ``position`` (clamped to the example)."""
        position = max(0, min(len(self.steps) - 1, int(position)))
        self.position = position
        text, latex = self.steps[position]
        picture = self.pictures[position] if position < len(self.pictures) else ""
        self.shown.value = picture + step_html(text, latex)
        self.counter.value = esc(_("step {n} of {total}").format(n=position + 1,
                                                                 total=len(self.steps)))
        self.back.disabled = position == 0
        self.next.disabled = position == len(self.steps) - 1

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


# --- a guided hand against bots ----------------------------------------------------
def _guide_events() -> tuple[tuple[type, ...], type[Any], type[Any]]:
    """(events the guide explains, the trick-won event, the round-scored event)."""
    from mathcards.games import moons_and_planets as mp
    from mathcards.games import shoot_the_moon as stm

    explained = (stm.TrickWon, stm.ChipsChanged, stm.RoundScored, stm.GameWon,
                 mp.PrizesAwarded, mp.GameWon, mp.PlanetDeclared, mp.PlanetSwitched, mp.MoonMade)
    return explained, stm.TrickWon, stm.RoundScored


class GuidedHand:
    """Play a trick game against bots with a guide beside you, on a real table.

    The hand is played on the same ``TableController`` as the arithmetic
    tables (``mathcards.table``), with the trick games' ``TrickView``: the
    controller applies the moves, lets the bots answer and keeps the history;
    this class draws the table and adds the guide. The trick is drawn as card
    faces in play order with who played each card (the leader marked), the
    prizes beside it (face-down ones as backs), and the guide's sentence about
    this trick or this choice next to it. The student's hand is the tables' own
    ``CardButton``s, enabled exactly for the card plays the controller offers
    (``card_states()``); a disabled card says in its tooltip which rule refuses
    it, and a forged click on it is refused with that rule (``try_card``).
    Every trick is explained as it is won, from the engine's own events. Moves
    other than card plays (putting down planets and moons, turning a prize) are
    buttons in words with card symbols: "Done putting cards down" shows first
    whenever it is legal, the other moves in pages of ``MAX_MOVE_BUTTONS`` with
    buttons to the previous and next page, so every legal move can be reached.
    With ``bot_delay`` (seconds) the bots' cards appear one by one, a pause
    apart; without it they answer at once. After a round the bots wait for
    "Play the next hand". Only the student's own hand and public cards are ever
    put in a widget.
    """

    MAX_MOVE_BUTTONS = 16
    ALWAYS_SHOWN = ("done",)  # moves (by save name) a student always needs, on every page

    def __init__(self, game: Any, seed: int = 0, *, seat: int = 0, bots: str = "strong",
                 stop_after_round: bool = True, bot_delay: float = 0.0) -> None:
        import ipywidgets as w

        from mathcards.table import TableController
        from mathcards.widgets.cards import style_html
        from mathcards.widgets.tricks import TrickView

        self.game = game
        self.seat = seat
        self.view = TrickView(game.name)
        self.stop_after_round = stop_after_round
        self.bot_delay = max(0.0, float(bot_delay))
        self.move_page = 0
        self.guide_lines: list[str] = []
        # a finished round, shown until "Play the next hand": its last trick and its moment
        self.round_end: tuple[Any, Any] | None = None
        self._due: list[Callable[[], None]] = []  # the bots' turns, run by _run_bots
        self.warning = w.HTML()
        self.warning.add_class("mc-guide-warning")
        self.table = w.HTML()  # the trick (or the last one), in play order
        self.table.add_class("mc-guided-trick")
        self.says = w.HTML()  # the guide's sentence about this trick or this choice
        self.says.add_class("mc-guide-says")
        self.prizes = w.HTML()  # the prizes (face-down as backs) or the chips, and the laid cards
        self.hand_title = w.HTML()
        self.hand_box = w.HBox()
        self.hand_box.add_class("mc-row")
        self.hand_box.add_class("mc-hand")
        self.hand_buttons = HandButtons(self.hand_box, self._on_card_click,
                                        mark="mc-hand-card", close_at_once=True)
        self.moves_box = w.VBox()
        self.moves_box.add_class("mc-guided-moves")
        self.guide = w.HTML()
        self.guide.add_class("mc-guide")
        self.continue_button = w.Button(description=_("Play the next hand"))
        self.continue_button.add_class("mc-choice")
        self.continue_button.add_class("mc-primary")
        self.continue_button.on_click(lambda _b: self.resume())
        self.continue_button.layout.display = "none"
        top = w.HBox([self.table, self.says])
        top.add_class("mc-guided-top")
        self.widget = w.VBox(
            [w.HTML(style_html()), top, self.prizes, self.hand_title, self.hand_box,
             self.moves_box, self.warning, self.continue_button, self.guide]
        )
        self.widget.add_class("mathcards")
        self.widget.add_class("mc-guided")
        seats = tuple("human" if s == seat else bots for s in range(game.num_players))
        self._moves_seen = 0
        self.ctl = TableController(
            self.view, seats=seats, state=game.new_game(seed), bot_delay=self.bot_delay or 1.0,
            save=False, bot_seed=seed, schedule=self._schedule, listener=self._on_change,
            pause_after_round=stop_after_round)
        self._moves_seen = len(self.state.history)
        self._run_bots()
        self._render()

    @property
    def state(self) -> Any:
        return self.ctl.state

    @property
    def paused(self) -> bool:
        """A hand is over and the bots wait for "Play the next hand": the table's own hold
        after a round (``TableController.holding``, "Next round" at every table)."""
        ctl = getattr(self, "ctl", None)  # (the controller's own first deal: none yet)
        return ctl is not None and ctl.holding

    # --- what the student can do -------------------------------------------
    def hand(self) -> tuple[Card, ...]:
        return self.ctl.hand()

    def _card_phase(self) -> bool:
        return self.view.card_phase(self.state)  # type: ignore[no-any-return]  # mathcards.widgets: Any to mypy

    def _my_turn(self) -> bool:
        return not self.paused and self.ctl.acting_human()

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards of the hand the rules let the student play now."""
        if not self._my_turn():
            return ()
        return tuple(s.card for s in self.ctl.card_states() if s.enabled)

    def try_card(self, card: Card | str) -> bool:
        """Play ``card`` if the rules allow it; otherwise warn and play nothing."""
        card = cards_of(card)[0]
        if self.state.is_over or not self._my_turn():
            self.warning.value = self._warn(_("wait: it is not your turn to play"))
            return False
        if card not in self.hand():
            self.warning.value = self._warn(_("{card} is not in your hand").format(card=card))
            return False
        action = self.view.card_play(self.state, card)
        if not self.state.is_legal(action):
            reason = self.view.card_refusal(self.state, card)
            self.warning.value = self._warn(_("{card}: {reason}. Choose another card.").format(
                card=card.symbol, reason=reason))
            return False
        return self.play(action)

    def play(self, action: Any) -> bool:
        """Apply one of the student's legal moves, then let the bots move."""
        from mathcards.table import Refused

        if not self._my_turn():
            return False
        try:
            self.ctl.play(action)  # a stale button: refused with the rule, never guessed
        except Refused as exc:
            self.warning.value = self._warn(str(exc))
            return False
        self.warning.value = ""
        self.move_page = 0
        self._run_bots()
        self._render()
        return True

    def show_move_page(self, page: int) -> None:
        """Show page ``page`` (0 = the first) of the moves other than the card plays."""
        self.move_page = page
        self._render_moves()

    def resume(self) -> None:
        """After a finished hand: carry on playing (the table's "Next round": the bots'
        next turn is scheduled, queued at once without a delay)."""
        self.round_end = None
        self.continue_button.layout.display = "none"
        if self.ctl.holding:
            self.ctl.next_round()
        self._run_bots()
        self._render()

    # --- the controller drives everything ---------------------------------------
    def _schedule(self, delay: float, turn: Callable[[], None]) -> None:
        """A bot's turn: queued and run at once (no delay), or on the kernel's loop after
        ``bot_delay`` seconds, drawing the table after each card so they appear one by one."""
        if not self.bot_delay:
            self._due.append(turn)
            return
        from mathcards.table import schedule_later

        def later() -> None:
            turn()  # nothing while held: "Play the next hand" schedules the bots again
            self._render()

        schedule_later(self.bot_delay, later)

    def _on_change(self, what: str) -> None:
        """After each move: the guide explains the events it teaches from."""
        ctl = getattr(self, "ctl", None)  # (the controller's own first deal: nothing yet)
        if ctl is None or what != "table" or len(ctl.state.history) == self._moves_seen:
            return
        self._moves_seen = len(self.state.history)
        explained, trick_won, round_scored = _guide_events()
        last_trick = None
        for event in self.state.new_events:
            if isinstance(event, trick_won):
                last_trick = event
            if isinstance(event, explained):
                self.guide_lines.append(self._explain(event))
                if isinstance(event, round_scored) and ctl.holding:
                    # the table holds the bots until "Play the next hand" (its own round
                    # moment); the next hand is dealt already: keep the round's last trick
                    # and its score (the moment, with its arithmetic) to show meanwhile
                    self.round_end = (last_trick, ctl.moment)

    def _explain(self, event: Any) -> str:
        _explained, trick_won, _round_scored = _guide_events()
        if isinstance(event, trick_won):
            who = self._who(event.player)
            cards = cards_shown(event.cards)
            why = event.reason[:1].upper() + event.reason[1:]  # the engine's reason, as a sentence
            said = (_("Trick {cards}: you take it. {why}.") if event.player == self.seat
                    else _("Trick {cards}: {who} takes it. {why}."))
            return said.format(cards=cards, who=who, why=why)
        return str(event.describe())

    def _who(self, player: int | None) -> str:
        if player == self.seat:
            return _("you")
        if player is not None and player >= self.game.num_players:
            return _("dummy")
        return _("Player {n}").format(n=player + 1) if player is not None else _("nobody")

    def _names(self) -> tuple[str, ...]:
        return tuple(self._who(s) for s in range(self.game.num_players))

    def _run_bots(self, limit: int = 2000) -> None:
        """Let the bots take their turns, until the student's turn or the end of a round."""
        for _turn in range(limit):
            if self.paused or not self._due:
                return
            self._due.pop(0)()

    # --- the guide's sentence -------------------------------------------------
    def guide_sentence(self) -> str:
        """What the guide says now about this trick or this choice (plain text)."""
        from mathcards.games.base import action_name

        state = self.state
        if state.is_over:
            return self.ctl.final_words()
        if self.paused:
            return _("The hand is over: read how it was scored below, then play the next hand.")
        if not self._my_turn():
            p = state.current_player
            return _("{who} is thinking…").format(who=self._who(p)) if p is not None else ""
        legal = tuple(state.legal_actions())
        names = {action_name(a) for a in legal}
        if self._card_phase():
            return self._card_sentence()
        if names == {"turn-prize"}:
            return _("You lead this trick: first turn one prize face up. The highest card of "
                     "the trick takes prize 1, the next prize 2, and so on.")
        from mathcards.games.moons_and_planets import PLANET_HIGH, PLANET_LOW

        return _("Put cards down if you can: a planet (2 or more cards of one suit adding to "
                 "{low}–{high}, or the 5 of clubs alone) first, then moons (runs of one colour, "
                 "sets of one rank, a single Ace). When you have finished, click “done putting "
                 "cards down”.").format(low=PLANET_LOW, high=PLANET_HIGH)

    def _card_sentence(self) -> str:
        obs = self.ctl.public_observation()
        trick = tuple(getattr(obs, "trick", ()))
        legal = self.legal_cards()
        refused = [c for c in self.hand() if c not in legal]
        playable = cards_shown(legal)
        if not trick:
            text = (_("You lead: play any card ({cards}).") if not refused
                    else _("You lead: you may play {cards}.")).format(cards=playable)
        else:
            led = trick[0]
            text = _("{led} was led. You may play {cards}.").format(led=led.symbol,
                                                                    cards=playable)
        if refused:
            reason = self.view.card_refusal(self.state, refused[0])
            text += " " + _("{cards}: not now ({reason}).").format(cards=cards_shown(refused),
                                                                   reason=reason)
        if self.game.name == "shoot_the_moon":
            text += " " + _("Red rockets {shape} trump; a Big Moon always wins.").format(
                shape=MOON_SHAPES["R"])
            taken = obs.tricks_won[self.seat] if self.seat < len(obs.tricks_won) else 0
            text += " " + ngettext(
                "You have {n} trick so far: an odd number (1 or 3) at the end of the hand wins "
                "a chip, all 5 win 2.",
                "You have {n} tricks so far: an odd number (1 or 3) at the end of the hand "
                "wins a chip, all 5 win 2.", taken).format(n=taken)
        else:
            text += " " + _("Cards that follow the led suit rank above discards.")
        return text

    # --- drawing ---------------------------------------------------------------
    @staticmethod
    def _warn(text: str) -> str:
        return (
            '<div role="alert" style="color:#b71c1c;font-weight:600">'
            f"⚠ {esc(text)}</div>"
        )

    def _render(self) -> None:
        status = _("The game is over.") if self.state.is_over else (
            _("Your turn.") if self._my_turn()
            else _("Hand finished.") if self.paused else _("Waiting for the bots.")
        )
        names = self._names()
        obs = self.ctl.public_observation()
        self.table.value = self.view.trick_area_html(self.state, obs, names)
        moment = ""
        if self.paused and self.round_end is not None:
            self.table.value, moment = self._round_end_html(names)
        self.prizes.value = moment + (self.view.prizes_html(self.state, obs, names)
                             + f'<div class="mc-status" role="status">{esc(status)} '
                             f"{esc(self.view.status(self.state, names))}</div>")
        guide = esc(_("Guide:"))
        self.says.value = (f'<div class="mc-says" role="status" aria-live="polite">'
                           f"<b>{guide}</b> {esc(self.guide_sentence())}</div>")
        hand = self.hand()
        how = (_("click a card to play it") if self._card_phase() or not self._my_turn()
               else _("use the buttons below it"))
        title = (_("Your next hand is dealt when you click “Play the next hand”") if self.paused
                 else ngettext("Your hand ({n} card): {how}", "Your hand ({n} cards): {how}",
                               len(hand)).format(n=len(hand), how=how))
        self.hand_title.value = f'<div class="mc-zone-title">{esc(title)}</div>'
        self.hand_buttons.draw(self.ctl.card_states(), playing=self._my_turn())
        self._render_moves()
        self.continue_button.layout.display = "" if self.paused and not self.state.is_over else (
            "none"
        )
        recent = self.guide_lines[-8:]
        happened, newest = esc(_("What happened")), esc(_("(newest first)"))
        self.guide.value = (
            f"<div><b>{happened}</b> {newest}</div>"
            + "".join(f"<div>{esc(line)}</div>" for line in reversed(recent))
        )

    def _round_end_html(self, names: Sequence[str]) -> tuple[str, str]:
        """The finished hand's last trick (who took it) and its score as a moment: each
        player's tricks, odd or even, and the chips before and after."""
        from mathcards.widgets.tricks import trick_html

        assert self.round_end is not None
        trick, moment = self.round_end
        table = self.table.value
        if trick is not None:
            who = self._who(trick.player)
            table = trick_html(trick.cards, trick.players, names, winner=trick.winner_index,
                               notes=self.view._trick_notes(self.state, trick.cards),
                               title=_("The hand's last trick: {who} took it").format(who=who))
        if moment is None:
            return table, ""
        lines = "".join(f"<li>{esc(line)}</li>" for line in moment.lines)
        mood = "mc-moment-win" if moment.win else "mc-moment-other"
        panel = (f'<div class="mc-moment {mood}" role="status" data-moment="{esc(moment.kind)}">'
                 f'<div class="mc-moment-title">{esc(moment.title)}</div>'
                 f'<div class="mc-moment-headline">{esc(moment.headline)}</div>'
                 f'<ul class="mc-moment-lines">{lines}</ul></div>')
        return table, panel

    def _on_card_click(self, button: CardButton) -> None:
        """A card button's click: only a card still in the hand's buttons means anything."""
        if self.hand_buttons.holds(button) and button.card is not None:
            self.try_card(button.card)

    def _render_moves(self) -> None:
        """The buttons of the moves other than card plays: "Done" first, then one page."""
        import ipywidgets as w

        from mathcards.games.base import action_name

        rows = []
        if self._my_turn() and not self._card_phase():
            matching, _choices = self.ctl.stage()
            legal = [a for a, _steps in matching if not self.view.is_card_play(a)]
            pinned = [a for a in legal if action_name(a) in self.ALWAYS_SHOWN]
            others = [a for a in legal if action_name(a) not in self.ALWAYS_SHOWN]
            size = self.MAX_MOVE_BUTTONS
            pages = max(1, -(-len(others) // size))
            page = self.move_page = max(0, min(self.move_page, pages - 1))
            shown = others[page * size : (page + 1) * size]
            buttons = []
            for action in (*pinned, *shown):
                # the move in words with card symbols ("declare the planet 9♥ 8♥"), the
                # engine's own text, so the label names exactly the move it plays
                button = w.Button(description=str(action), tooltip=_move_tooltip(action),
                                  layout=w.Layout(width="auto"))
                button.add_class("mc-choice")
                if action in pinned:
                    button.add_class("mc-primary")
                    button.add_class("mc-done")
                button.on_click(lambda _b, action=action: self.play(action))
                buttons.append(button)
            rows.append(w.HBox(buttons, layout=w.Layout(flex_flow="row wrap")))
            if pages > 1:
                back = w.Button(description=_("◂ Previous moves"), disabled=page == 0)
                back.on_click(lambda _b: self.show_move_page(self.move_page - 1))
                more = w.Button(description=_("More moves ▸"), disabled=page == pages - 1)
                more.on_click(lambda _b: self.show_move_page(self.move_page + 1))
                for b in (back, more):
                    b.add_class("mc-choice")
                where = w.HTML(esc(_("moves {first}–{last} of {n} (page {page} of {pages})").format(
                    first=page * size + 1, last=page * size + len(shown), n=len(others),
                    page=page + 1, pages=pages)))
                rows.append(w.HBox([back, where, more], layout=w.Layout(flex_flow="row wrap")))
        _replace_children(self.moves_box, rows)

    def move_buttons(self) -> list[Any]:
        """The move buttons shown now ("Done" first), without the page buttons."""
        if not self.moves_box.children:
            return []
        return list(self.moves_box.children[0].children)

    def done_button(self) -> Any | None:
        """The "done putting cards down" button, when it is shown (whenever it is legal)."""
        return next((b for b in self.move_buttons() if "mc-done" in b._dom_classes), None)

    # --- for tests: what a page visitor can read -----------------------------------
    @property
    def viewer(self) -> int:
        """The seat whose hand this screen shows (the student's)."""
        return self.seat

    def hidden_widget_states(self) -> list[dict[str, Any]]:
        """Every synced state of every widget of this hand (children, layouts, styles)."""
        return synced_states(self.widget)  # type: ignore[no-any-return]  # mathcards.widgets: Any to mypy

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def _move_tooltip(action: Any) -> str:
    """What a move button does, in a sentence (no card it does not already name)."""
    from mathcards.games.base import action_name

    return {
        "done": _("finish putting cards down: the next player goes on"),
        "turn-prize": _("turn this prize face up, then lead a card"),
        "declare-planet": _("put these cards down as your planet"),
        "make-moon": _("put these cards down as a new moon"),
        "add-to-moon": _("add these cards to one of your moons"),
        "regroup": _("lay your moons out again, with these cards from your hand"),
    }.get(action_name(action), str(action))


def _replace_children(box: Any, children: list[Any]) -> None:
    """Put ``children`` in ``box`` and close the widgets they replace (with their own
    layout and style widgets), so a long game does not keep every old button alive."""
    old = box.children
    box.children = children
    for widget in old:
        _close(widget)


def _close(widget: Any) -> None:
    for child in getattr(widget, "children", ()):
        _close(child)
    for part in (getattr(widget, "layout", None), getattr(widget, "style", None)):
        if part is not None:
            part.close()
    widget.close()


# --- worked examples of the arithmetic games ----------------------------------------
def suns_to_moons_example(plays: Sequence[tuple[int, int]], *, goal: int | None = None,
                          title: str = "") -> StepThrough:
    """A seed example of Suns to Moons stepped through with the explainer.

    ``plays`` are ``(value, sign)`` pairs, the centre card first; a Joker is
    ``(0, 0)``. Each step is the explainer's signed addition (or Joker
    removal); the last is the round's whole chain, in the order of play.
    """
    from mathcards.explain import Chain, JokerRemoval, SignedAddition, chain_steps, seed_record
    from mathcards.games.suns_to_moons import count_deck

    suits = "HSDC"
    count = count_deck(None if sign == 0 else sign * value for value, sign in plays)
    steps: list[object] = []
    before = 0
    for i, ((value, sign), after) in enumerate(zip(plays, count.running, strict=True)):
        if sign == 0:
            removed = before - after
            steps.append(JokerRemoval(player=None, removed_card=None if not removed else
                                      _card_for(abs(removed), suits[i % 4]),
                                      removed_contribution=removed, before=before,
                                      after=after, goal=goal))
        elif i == 0:
            card = _card_for(value, suits[i % 4])
            steps.append((_("The centre card {card} starts the deck at {value}.").format(
                card=card.symbol, value=value), ""))
        else:
            steps.append(SignedAddition(player=None, card=_card_for(value, suits[i % 4]),
                                        value=value, before=before, contribution=sign * value,
                                        after=after, goal=goal))
        before = after
    chain: Chain = chain_steps(count.counted, goal=goal)
    steps.append((_("The whole round: {chain}. As the rule book writes it: {record}").format(
        chain=chain.text, record=seed_record(plays)), chain.latex))
    return StepThrough(steps, title=title)


def _card_for(value: int, suit: str) -> Card:
    """A card of ``value`` for pictures of seed examples (14 is an Ace)."""
    return Card(suit, 1 if value == 14 else value)


def dice_stacks_example(examples: Sequence[tuple[str, tuple[int, int]]],
                        title: str = "") -> StepThrough:
    """Stacks from the seed, each explained by ``stack_steps`` (or why it is no stack)."""
    from mathcards.explain import NotAStackError, stack_steps

    steps, pictures = [], []
    for cards, dice in examples:
        target = sum(dice)
        pictures.append(dice_svg(dice[0]) + " " + dice_svg(dice[1]) + card_row(cards))
        try:
            step = stack_steps(cards, dice)
        except NotAStackError as exc:
            # the explainer's reason, in a sentence of the page's language
            shown = " ".join(c.symbol for c in cards_of(cards))
            steps.append((_("Making {n}: not a stack. {cards} is not a stack of {n}: "
                            "{why}").format(n=target, cards=shown, why=exc.reason), ""))
        else:
            steps.append((_("Making {n}: {how}").format(n=target, how=step.text), step.latex))
    return StepThrough(steps, pictures=pictures, title=title)


def sums_example(played: str, own: str, opponent: str, title: str = "") -> StepThrough:
    """A capture in Sums, step by step: the cards, then each way the engine finds."""
    from mathcards.games.sums import capture_ways

    ways = capture_ways(played, cards_of(own), cards_of(opponent))
    p = cards_of(played)[0]
    steps = [(_("You play {card}. Your other face-up cards: {own}; your opponent's: "
                "{theirs}.").format(card=p.symbol,
                                    own=" ".join(c.symbol for c in cards_of(own)),
                                    theirs=" ".join(c.symbol for c in cards_of(opponent))), "")]
    pictures = [esc(_("You play")) + " " + card_row(played) + esc(_("Your side:")) + " "
                + card_row(own) + esc(_("Opponent:")) + " " + card_row(opponent)]
    for way in ways:
        latex = way.equation.replace("−", "-")
        steps.append((_("{equation}: {card} with your {helper} makes {result}, so you capture "
                        "{target}.").format(equation=way.equation, card=p.symbol,
                                            helper=way.helper.symbol, result=way.result,
                                            target=way.target.symbol), latex))
        pictures.append(card_row([p, way.helper, way.target]))
    if not ways:
        steps.append((_("No card of the same colour adds or subtracts to an opponent's card: "
                        "no capture."), ""))
    return StepThrough(steps, pictures=pictures, title=title)
