"""The Dice Stacks table: roll, draw, select cards into stacks and lay them down.

A turn by clicks: "Roll the dice"; "Draw n cards" (the smaller die); then
"Draw n more" or "Stop"; then click cards of your hand to select them into a
stack. At "Show me the sums" the selection's arithmetic shows live under the
hand ("10 − 1 − 1 = 8 ✓") or the rule it breaks, and "Lay down" is enabled
only when the selection is a stack; at "I count" the line names the cards
selected only, "Lay down" is always offered, laying a stack asks what it makes
(``mathcards.games.dice_stacks.questions``) and a non-stack is refused with the rule's
reason. "End turn" keeps the cards left in hand.

Each player's stacks lie on the table as small overlapped piles; a special
stack (two cards matching both dice) is laid as two piles marked "2 points",
as the seed says; a run-out point shows its marker card turned up.

The legal stacks of a hand are a lazy collection (there can be very many),
so the table never lists them as buttons: a selection is checked with
``state.is_legal(LayStack(cards))``, which is a direct membership test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from mathcards.cards import Card
from mathcards.games.base import Event, State, number, seat_name
from mathcards.games.dice_stacks import (
    CardsDrawn,
    DiceRolled,
    DiceStacks,
    DiceStacksState,
    Draw,
    DrawRest,
    EndTurn,
    LayStack,
    Phase,
    Roll,
    StackLaid,
    StopDrawing,
    TurnEnded,
)
from mathcards.i18n import N_, _, ngettext
from mathcards.table import Choice, GameView

from .cards import backs_html, card_face_html, esc, stack_html

if TYPE_CHECKING:  # the view is pure Python: only the table needs ipywidgets
    from mathcards.widgets.table import GameTable

__all__ = ["DiceStacksView", "dice_stacks_table", "die_html"]

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def die_html(value: int) -> str:
    """One die: its pips (a Unicode die face) and its number, spoken as "die showing 3"."""
    said = esc(_("die showing {value}").format(value=value))
    return (f'<span class="mc-die" role="img" aria-label="{said}" '
            f'title="{said}"><span aria-hidden="true">{DIE_FACES[value - 1]}'
            f'</span><span class="mc-die-num" aria-hidden="true">{value}</span></span>')


def _stack_points(state: State) -> list[list[int]]:
    """Points of every stack laid, per player, in the order laid (from the public events)."""
    points: list[list[int]] = [[] for _ in range(state.game.num_players)]
    for event in state.events:
        if isinstance(event, StackLaid):
            points[event.player].append(event.points)
    return points


def _score_text(state: State, obs: Any, seat: int, withheld: int = 0) -> str:
    """How a seat's score is made, so it agrees with the score at the top: ``4 stack
    points``, ``score 5 = 4 stack points + 1 run-out point``, and at the end ``− 2 cards
    left`` (the engine's own parts and total), and ``− 1 point worked out for you`` (moves
    played for the student after two wrong answers: ``GameView.withheld``)."""
    n = obs.stack_points[seat]
    parts = [ngettext("{n} stack point", "{n} stack points", n).format(n=n)]
    if obs.run_outs[seat]:
        n = obs.run_outs[seat]
        parts.append(ngettext("+ {n} run-out point", "+ {n} run-out points", n).format(n=n))
    if state.is_over and obs.hand_sizes[seat]:
        n = obs.hand_sizes[seat]
        parts.append(ngettext("− {n} card left", "− {n} cards left", n).format(n=n))
    if withheld:
        parts.append(ngettext("− {n} point worked out for you",
                              "− {n} points worked out for you", withheld).format(n=withheld))
    if len(parts) == 1:
        return parts[0]
    return _("score {total} = {parts}").format(total=number(state.scores[seat] - withheld),
                                               parts=" ".join(parts))


def _dice_html(a: int, b: int) -> str:
    said = esc(_("dice {a} and {b}").format(a=a, b=b))
    return (f'<span class="mc-dice" role="group" aria-label="{said}">'
            f'{die_html(a)}{die_html(b)}</span>')


def _stacks_label(seat_names: Sequence[str], seat: int) -> str:
    """ "Your stacks", "Ana's stacks": whose, as a whole phrase of the page's language."""
    name = seat_name(seat_names, seat)
    if name.endswith("(you)"):
        return _("Your stacks")
    if name.endswith(")") and " (" in name:  # "Player 2 (bot)": Player 2's
        name = name[: name.rindex(" (")]
    return _("{name}'s stacks").format(name=name)


class DiceStacksView(GameView):
    game_name = "dice_stacks"
    selection_mode_hint = N_("click cards to put them in a stack, then lay it down")

    # --- table -----------------------------------------------------------
    def board_html(self, state: State, obs: Any, seat_names: Sequence[str], *,
                   viewer: int | None = None) -> str:
        if obs.dice and self.counting:  # "I count": the student says what the dice make
            a, b = obs.dice
            dice = _dice_html(a, b)
        elif obs.dice:
            a, b = obs.dice
            # the words escaped, then the sum in bold put in
            making = esc(_("making {total}s ({a} + {b})")).format(
                total=f'<strong data-target="{a + b}">{a + b}</strong>', a=a, b=b)
            dice = f"{_dice_html(a, b)} {making}"
        else:
            not_yet = _("not rolled yet")
            dice = f'<span class="mc-count">{esc(not_yet)}</span>'
        n = obs.stock_size
        stock_said = ngettext("stock: {n} card face down", "stock: {n} cards face down",
                              n).format(n=n)
        stock_count = ngettext("stock · {n} card", "stock · {n} cards", n).format(n=n)
        stock = (f'<span class="mc-pile mc-pile-beside" role="group" '
                 f'aria-label="{esc(stock_said)}">'
                 f'{backs_html(min(obs.stock_size, 1), limit=1)}'
                 f'<span class="mc-count">{esc(stock_count)}</span>'
                 f'</span>')
        laid = _stack_points(state)
        seats = []
        for i, name in enumerate(seat_names):
            parts = []
            for j, stack in enumerate(obs.stacks[i]):
                pts = laid[i][j] if j < len(laid[i]) else 1
                if pts == 2 and len(stack) == 2:
                    # the seed: a special stack is laid as two stacks, two points
                    half = _("special stack, half")
                    pair = "".join(stack_html((c,), label=half) for c in stack)
                    special = _("special stack: {first} and {second}, 2 points").format(
                        first=stack[0].name, second=stack[1].name)
                    two = _("2 points")
                    parts.append(f'<span class="mc-special-pair" role="group" aria-label='
                                 f'"{esc(special)}">{pair}'
                                 f'<span class="mc-count">{esc(two)}</span></span>')
                else:
                    parts.append(stack_html(stack, label=_("stack, 1 point")))
            markers = "".join(
                card_face_html(c, small=True, extra="mc-marker",
                               label=_("run-out point, counted by {card} turned face up")
                               .format(card=c.name))
                for c in obs.markers[i])
            missing = obs.run_outs[i] - len(obs.markers[i])
            if missing > 0:
                more = ngettext("+{n} run-out point", "+{n} run-out points",
                                missing).format(n=missing)
                markers += f'<span class="mc-count">{esc(more)}</span>'
            runs_said = _("run-out points: {n}").format(n=obs.run_outs[i])
            run_word = _("run-out")
            run_out = (f'<span class="mc-runouts" role="group" aria-label="{esc(runs_said)}">'
                       f'{esc(run_word)} {markers}</span>' if obs.run_outs[i] else "")
            no_stacks = _("no stacks yet")
            stacks = "".join(parts) or f'<span class="mc-count">{esc(no_stacks)}</span>'
            hand = backs_html(obs.hand_sizes[i], owner=name, own=i == viewer)
            to_act = " mc-to-act" if i == obs.current_player else ""
            score = _score_text(state, obs, i, self.withheld.get(i, 0))
            hand_word = _("hand")
            seats.append(
                f'<div class="mc-seat{to_act}" role="group" aria-label="{esc(name)}">'
                f'<strong>{esc(name)}</strong> · {esc(score)} · {esc(hand_word)} '
                f'{hand}'
                f'<div class="mc-row mc-stacks" aria-label="'
                f'{esc(_stacks_label(seat_names, i))}">{stacks}'
                f'{run_out}</div></div>')
        return (f'<div class="mc-zone mc-row">{stock}<div>{dice}</div></div>'
                f'<div class="mc-row mc-seats">{"".join(seats)}</div>')

    def status(self, state: State, seat_names: Sequence[str]) -> str:
        p = state.current_player
        if p is None:
            return _("The game is over.")
        obs = state.observation(p)
        who = seat_names[p]
        if obs.phase == "roll":
            return _("{who}: roll the dice.").format(who=who)
        a, b = obs.dice
        if obs.phase in ("draw", "more"):
            # how many to draw is the engine's (the smaller die, the rest, fewer if the stock
            # is short); only asked while drawing: the stacks phase lists every stack a hand
            # makes, hundreds of thousands for a large hand
            draw = next(x.count for x in state.legal_actions() if isinstance(x, Draw | DrawRest))
        # "I count": the target (the dice's sum) is the student's to say, never printed
        words = {"who": who, "a": a, "b": b, "total": a + b, "more": abs(a - b)}
        if obs.phase == "draw":
            words["draw"] = draw
            if self.counting and a != b:
                said = _("{who} rolled {a} and {b}. Draw {draw} first, then decide whether "
                         "to draw up to {more} more.")
            elif self.counting:
                said = _("{who} rolled {a} and {b}. Draw {draw} first.")
            elif a != b:
                said = _("{who} rolled {a} and {b}: making {total}s. Draw {draw} first, then "
                         "decide whether to draw up to {more} more.")
            else:
                said = _("{who} rolled {a} and {b}: making {total}s. Draw {draw} first.")
            return said.format(**words)
        if obs.phase == "more":
            n = obs.hand_sizes[p]
            if self.counting:
                said = ngettext("{who}: draw {draw} more, or stop with {n} card.",
                                "{who}: draw {draw} more, or stop with {n} cards.", n)
            else:
                said = ngettext("{who}: making {total}s. Draw {draw} more, or stop with "
                                "{n} card.",
                                "{who}: making {total}s. Draw {draw} more, or stop with "
                                "{n} cards.", n)
            return said.format(draw=draw, n=n, **words)
        if self.counting:
            return _("{who}: make stacks of the dice's sum (click cards, then lay them "
                     "down), or end the turn.").format(who=who)
        return _("{who}: make stacks of {total} (click cards, then lay them down), or end "
                 "the turn.").format(who=who, total=a + b)

    # --- moves -----------------------------------------------------------
    def listed_actions(self, state: State) -> Sequence[Any]:
        """Every legal move but the stacks (a lazy collection: stacks are selected)."""
        if state.is_over:
            return ()
        if cast(DiceStacksState, state).phase == Phase.STACKS:
            return (EndTurn(),)
        return tuple(state.legal_actions())

    def path(self, state: State, action: Any) -> tuple[Choice, ...]:
        if isinstance(action, Roll):
            return (Choice("roll", _("Roll the dice"), tooltip=_("roll both dice"),
                           primary=True),)
        if isinstance(action, Draw):
            n = action.count
            return (Choice("draw", ngettext("Draw {n} card", "Draw {n} cards", n).format(n=n),
                           tooltip=_("draw the smaller die's number of cards"), primary=True),)
        if isinstance(action, DrawRest):
            return (Choice("rest", _("Draw {n} more").format(n=action.count),
                           tooltip=_("draw up to the larger die's number")),)
        if isinstance(action, StopDrawing):
            ds = cast(DiceStacksState, state)
            n = len(ds.hands[ds.current_player]) if ds.current_player is not None else 0
            return (Choice("stop", ngettext("Stop with {n} card", "Stop with {n} cards",
                                            n).format(n=n),
                           tooltip=_("keep the cards drawn and make stacks")),)
        if isinstance(action, EndTurn):
            return (Choice("end", _("End turn"),
                           tooltip=_("keep the cards left for your next turn")),)
        if isinstance(action, LayStack):
            cards = " ".join(c.symbol for c in action.cards)
            return (Choice("lay", _("lay {cards} as a stack").format(cards=cards)),)
        return super().path(state, action)

    def selection_mode(self, state: State) -> bool:
        return bool(cast(DiceStacksState, state).phase == Phase.STACKS)

    def follow_up(self, state: State) -> Any | None:
        """An emptied hand ends the turn by itself: the run-out point is scored and the
        player's next turn starts (rule 5); no card is left to decide anything with."""
        ds = cast(DiceStacksState, state)
        p = ds.current_player
        if p is not None and ds.phase == Phase.STACKS and not ds.hands[p]:
            return EndTurn()
        return None

    def selection_action(self, state: State, cards: tuple[Card, ...]) -> Any:
        return LayStack(cards)

    def selection_summary(self, state: State, cards: tuple[Card, ...]) -> tuple[bool, str]:
        """The selection's arithmetic: ``10 − 1 − 1 = 8 ✓`` or why it is not a stack. At
        "I count" only which cards are selected: neither their arithmetic nor whether they
        make a stack (laying them down asks what they make; the rules refuse a non-stack)."""
        if not cards:
            return False, ""
        if self.counting:
            return True, _("selected: {cards}").format(cards=" ".join(c.symbol for c in cards))
        action = LayStack(cards)
        laid = _laid(state, action)
        if laid is not None:  # what if: the engine lays it and says how
            if laid.points == 2:
                return True, _("{sum} ✓ (special stack: 2 points)").format(
                    sum=_expression(laid))
            return True, f"{_expression(laid)} ✓"
        return False, _("not a stack: {reason}").format(reason=self.why_not(state, action))

    def card_refusal(self, state: State, card: Card) -> str:
        from mathcards.explain import refusal_words

        # a card goes into a stack: the phase's rule ("roll first"), not why one card alone
        # is no stack
        return refusal_words(state, LayStack((card,)), arithmetic=False)

    # --- explaining ------------------------------------------------------
    def chain(self, before: State, after: State) -> str:
        """This turn's stacks so far, each as its expression."""
        found = []
        for event in reversed(after.events):
            if isinstance(event, StackLaid):
                shown = " ".join(c.symbol for c in event.cards)
                found.append(f"{shown}: {_expression(event)}")
            elif isinstance(event, DiceRolled | TurnEnded):
                break
        if not found:
            return ""
        return _("Stacks this turn: {stacks}").format(stacks="; ".join(reversed(found)))

    def history_line(self, event: Event, seat_names: Sequence[str]) -> str | None:
        if isinstance(event, DiceRolled) and self.counting:  # not "making 8s"
            a, b = event.dice
            return _("{who} rolled {a} and {b}.").format(
                who=seat_name(seat_names, event.player), a=a, b=b)
        if isinstance(event, CardsDrawn):
            # the cards drawn are hidden: the history says only how many
            n = event.count
            return ngettext("{who} drew {n} card.", "{who} drew {n} cards.", n).format(
                who=seat_names[event.player], n=n)
        return super().history_line(event, seat_names)


def _laid(state: State, action: LayStack) -> StackLaid | None:
    """The stack ``action`` would lay, by applying it to ``state`` (None: not legal)."""
    if not state.is_legal(action):
        return None
    return next((e for e in state.apply(action).new_events if isinstance(e, StackLaid)), None)


def _expression(event: StackLaid) -> str:
    from mathcards.games.dice_stacks.explain import step_of

    return step_of(event.shape, event.dice).text if event.shape else f"{event.target}"


def dice_stacks_table(*, players: int = 2, seats: Sequence[str] | None = None,
                      decks: int | None = None, seed: int | None = None,
                      bot_delay: float = 0.8, **kwargs: Any) -> GameTable:
    """A Dice Stacks table: you against bots unless ``seats`` says otherwise."""
    game = DiceStacks(num_players=players, decks=decks)
    from mathcards.widgets.table import GameTable

    return GameTable(DiceStacksView(), game, seats=seats, seed=seed, bot_delay=bot_delay,
                     **kwargs)
