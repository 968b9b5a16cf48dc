"""The Sums table: draw from a community pile, play a card, choose a capture, counter or not.

The community piles show their top cards (they are face up), each player's
side shows the cards they have in play, captured cards lie face down in a
pile with their count, and a threatened capture is spelled out with its sum
so the owner can decide whether to counter ("Show me the sums"). At "I count"
the table points out no capture: a card chosen to play is a claim the student
makes (``mathcards.games.sums.questions``), a threat is named without its sum, and every
card of the hand may be tried as a counter (the rules refuse the others).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mathcards import i18n
from mathcards.cards import Card
from mathcards.games.base import State, possessive
from mathcards.games.sums import (
    Capture,
    Counter,
    Decline,
    Draw,
    EndGame,
    Play,
    Sums,
    TakeBack,
)
from mathcards.games.sums.rules import card_points
from mathcards.i18n import _
from mathcards.table import Choice, GameView, Refused

from .cards import backs_html, card_face_html, esc, pile_html

if TYPE_CHECKING:  # the view is pure Python: only the table needs ipywidgets
    from mathcards.widgets.table import GameTable

__all__ = ["SumsView", "sums_table"]


def _seat(seat_names: Sequence[str], seat: int) -> str:
    """A seat's name in a sentence of another language (no English "(you)'s")."""
    return seat_names[seat] if 0 <= seat < len(seat_names) else str(seat + 1)


class SumsView(GameView):
    game_name = "sums"
    # a draw is made from the piles, a claim about the cards in play: their buttons (and
    # the claim's number pad under them) come right under the table, above the hand,
    # on a laptop's first screen however many cards are in play (issue 36 item 16)
    choices_above_hand = True

    def board_html(self, state: State, obs: Any, seat_names: Sequence[str], *,
                   viewer: int | None = None) -> str:
        piles = "".join(
            pile_html(top, size, label=_("pile {number}").format(number=i + 1))
            for i, (top, size) in enumerate(zip(obs.pile_tops, obs.pile_sizes, strict=True))
        )
        seats = []
        threat = obs.threat
        for i, name in enumerate(seat_names):
            side = obs.sides[i]
            faces = []
            for c in side:
                mark = ""
                if threat is not None and i == threat.target_owner and c == threat.target:
                    mark = "mc-threatened"
                faces.append(card_face_html(c, small=True, extra=mark))
            none_in_play = esc(_("no cards in play"))
            side_html = "".join(faces) or f'<span class="mc-count">{none_in_play}</span>'
            captured = obs.captured_counts[i]
            none_captured = esc(_("nothing captured yet"))
            cap_html = (pile_html(None, captured, label=_("captured"), face_down=True)
                        if captured else f'<span class="mc-count">{none_captured}</span>')
            hand = backs_html(obs.hand_sizes[i], owner=name, own=i == viewer)
            to_act = " mc-to-act" if i == obs.current_player else ""
            in_play = _("{name} in play").format(name=name)
            hand_word = _("hand")
            seats.append(
                f'<div class="mc-seat{to_act}" role="group" aria-label="{esc(name)}">'
                f'<strong>{esc(name)}</strong> · {esc(hand_word)} {hand}'
                f'<div class="mc-row" aria-label="{esc(in_play)}">{side_html} {cap_html}</div>'
                "</div>")
        threat_html = ""
        if threat is not None and self.counting:  # "I count": the threat, not its sum
            words = _("{attacker}'s {card} threatens {owner}'s {target}").format(
                attacker=seat_names[threat.attacker], card=threat.played.symbol,
                owner=seat_names[threat.target_owner], target=threat.target.symbol)
            threat_html = f'<div class="mc-status mc-threat" role="status">{esc(words)}</div>'
        elif threat is not None:
            w = threat.way
            words = _("{attacker}'s {card} threatens {owner}'s {target}: {sum}").format(
                attacker=_seat(seat_names, threat.attacker), card=w.played.symbol,
                owner=_seat(seat_names, threat.target_owner), target=w.target.symbol,
                sum=w.equation)
            if i18n.language() == i18n.SOURCE:  # English says "Your 7♣ threatens Ana's 5♣"
                words = (f"{possessive(seat_names, threat.attacker, start=True)} "
                         f"{w.played.symbol} threatens "
                         f"{possessive(seat_names, threat.target_owner)} "
                         f"{w.target.symbol}: {w.equation}")
            threat_html = f'<div class="mc-status mc-threat" role="status">{esc(words)}</div>'
        title = _("Community piles")
        return (f'<div class="mc-zone"><div class="mc-zone-title">{esc(title)}'
                f'</div><div class="mc-row">{piles}</div></div>{threat_html}'
                f'<div class="mc-row mc-seats">{"".join(seats)}</div>')

    def status(self, state: State, seat_names: Sequence[str]) -> str:
        p = state.current_player
        if p is None:
            return _("The game is over.")
        obs = state.observation(p)
        who = seat_names[p]
        phase = obs.phase
        if phase == "start":
            return _("{who}: draw the top card of a pile.").format(who=who)
        if phase == "play":
            return _("{who}: play a card from your hand face up on your side.").format(who=who)
        if phase == "choose":
            return _("{who}: several cards can be captured; choose one.").format(who=who)
        if phase == "counter":
            return _("{who}: your card is threatened. Counter it with a card, or let it "
                     "go.").format(who=who)
        if phase == "last":
            return _("{who}: a pile is empty. Play one last card, or end the game.").format(
                who=who)
        return ""

    def score_words(self, state: State, viewer: int | None) -> tuple[str, ...]:
        """Why a Sums score is not 0 before anyone has captured: every card on a player's
        side counts (rule 6: 2-10 one point, J and Q two, A and K three), the card they
        were dealt face up too ("2 (from your cards in play)"); then the captured cards.
        The words name the parts without figures: the one figure shown is the score as
        counted (points of a move worked out for the student are held back), and no second
        number on the page can give away a question's answer."""
        sides = getattr(state, "sides", ())
        words = []
        for i, (score, side) in enumerate(zip(state.scores, sides, strict=False)):
            own = sum(card_points(c) for c in side)
            if score == 0:
                words.append("")
            elif score == own and not self.withheld.get(i, 0):
                words.append(_("from your cards in play") if i == viewer else
                             _("from their cards in play"))
            else:  # the figure shown is the score: its parts in words, no second sum to add
                words.append(_("from your cards in play and your captured cards")
                             if i == viewer else
                             _("from their cards in play and their captured cards"))
        return tuple(words)

    # --- moves -----------------------------------------------------------
    def listed_actions(self, state: State) -> Sequence[Any]:
        """The legal moves; at "I count", countering, every card of the hand is offered
        (which cards counter is the student's to find: the rules refuse the others)."""
        legal = tuple(state.legal_actions())
        if not self.counting or state.current_player is None:
            return legal
        if state.observation(state.current_player).phase != "counter":
            return legal
        hand = state.observation(state.current_player).hand
        tried = tuple(Counter(c) for c in dict.fromkeys(hand) if Counter(c) not in legal)
        return legal + tried

    def path(self, state: State, action: Any) -> tuple[Choice, ...]:
        if isinstance(action, Draw):
            # "Draw 2♠": short enough for a row of eight piles on a laptop's first screen;
            # the pile's number only when another pile shows the same card (two decks)
            tops = state.observation(_actor(state)).pile_tops
            top = tops[action.pile]
            number = action.pile + 1
            if top is None:
                label = _("Draw a card (pile {number})").format(number=number)
                tip = _("take the top card of pile {number}").format(number=number)
            else:
                label = (_("Draw {card} (pile {number})") if tops.count(top) > 1
                         else _("Draw {card}")).format(card=top.symbol, number=number)
                tip = _("take the top card of pile {number}, {card}").format(
                    number=number, card=top.name)
            return (Choice(f"pile:{action.pile}", label, tooltip=tip),)
        if isinstance(action, Play):
            return (Choice(f"card:{action.card}", action.card.symbol, card=action.card,
                           tooltip=_("play it face up on your side")),)
        if isinstance(action, Counter):
            tip = (_("counter with it, if it captures the threatening card") if self.counting
                   else _("counter: this card captures the threatening card"))
            return (Choice(f"card:{action.card}", action.card.symbol, card=action.card,
                           tooltip=tip),)
        if isinstance(action, Capture):
            return (Choice(f"cap:{action.owner}:{action.target}",
                           _("Capture Player {number}'s {card}").format(
                               number=action.owner + 1, card=action.target.symbol),
                           tooltip=_("capture {card}").format(card=action.target.name),
                           primary=True),)
        if isinstance(action, Decline):
            return (Choice("decline", _("Let the capture happen"),
                           tooltip=_("do not counter: your card is captured")),)
        if isinstance(action, TakeBack):
            return (Choice(f"back:{action.card}",
                           _("Take back {card}").format(card=action.card.symbol),
                           tooltip=_("take {card} back into your hand").format(
                               card=action.card.name)),)
        if isinstance(action, EndGame):
            return (Choice("endgame", _("End the game (no last play)")),)
        return super().path(state, action)

    def card_refusal(self, state: State, card: Card) -> str:
        phase = state.observation(_actor(state)).phase
        return self.why_not(state, Counter(card) if phase == "counter" else Play(card))


def _actor(state: State) -> int:
    """The seat to act (a Sums move or card is offered only while someone is to act)."""
    p = state.current_player
    if p is None:
        raise Refused(_("the game is over: start a new game"))
    return p


def sums_table(*, players: int = 2, seats: Sequence[str] | None = None, piles: int = 2,
               seed: int | None = None, bot_delay: float = 0.8, **kwargs: Any) -> GameTable:
    """A Sums table: you against bots unless ``seats`` says otherwise."""
    game = Sums(num_players=players, piles=piles)
    from mathcards.widgets.table import GameTable

    return GameTable(SumsView(), game, seats=seats, seed=seed, bot_delay=bot_delay, **kwargs)
