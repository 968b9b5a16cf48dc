"""The Dice Stacks table: roll, draw, select cards into stacks and lay them down.

A turn by clicks: "Roll the dice"; "Draw n cards" (the smaller die); then
"Draw n more" or "Stop"; then click cards of your hand to select them into a
stack. At "Show me the sums" the selection's arithmetic shows live under the
hand ("10 − 1 − 1 = 8 ✓") or the rule it breaks, and "Lay down" is enabled
only when the selection is a stack; at "I count" the line names the cards
selected only, "Lay down" is always offered, laying a stack asks what it makes
(``mathcards.asking.dice_stacks``) and a non-stack is refused with the rule's
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
from mathcards.games.base import Event, State, number, plural, possessive, seat_name
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
from mathcards.table import Choice, GameView

from .cards import backs_html, card_face_html, esc, stack_html

if TYPE_CHECKING:  # the view is pure Python: only the table needs ipywidgets
    from mathcards.widgets.table import GameTable

__all__ = ["DiceStacksView", "dice_stacks_table", "die_html"]

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def die_html(value: int) -> str:
    """One die: its pips (a Unicode die face) and its number, spoken as "die showing 3"."""
    return (f'<span class="mc-die" role="img" aria-label="die showing {value}" '
            f'title="die showing {value}"><span aria-hidden="true">{DIE_FACES[value - 1]}'
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
    parts = [plural(obs.stack_points[seat], "stack point")]
    if obs.run_outs[seat]:
        parts.append(f"+ {plural(obs.run_outs[seat], 'run-out point')}")
    if state.is_over and obs.hand_sizes[seat]:
        parts.append(f"− {plural(obs.hand_sizes[seat], 'card')} left")
    if withheld:
        parts.append(f"− {plural(withheld, 'point')} worked out for you")
    if len(parts) == 1:
        return parts[0]
    return f"score {number(state.scores[seat] - withheld)} = {' '.join(parts)}"


class DiceStacksView(GameView):
    game_name = "dice_stacks"
    selection_mode_hint = "click cards to put them in a stack, then lay it down"

    # --- table -----------------------------------------------------------
    def board_html(self, state: State, obs: Any, seat_names: Sequence[str], *,
                   viewer: int | None = None) -> str:
        if obs.dice and self.counting:  # "I count": the student says what the dice make
            a, b = obs.dice
            dice = (f'<span class="mc-dice" role="group" aria-label="dice {a} and {b}">'
                    f'{die_html(a)}{die_html(b)}</span>')
        elif obs.dice:
            a, b = obs.dice
            dice = (f'<span class="mc-dice" role="group" aria-label="dice {a} and {b}">'
                    f'{die_html(a)}{die_html(b)}</span> making <strong data-target="{a + b}">'
                    f'{a + b}s</strong> ({a} + {b})')
        else:
            dice = '<span class="mc-count">not rolled yet</span>'
        stock = (f'<span class="mc-pile mc-pile-beside" role="group" aria-label="stock: '
                 f'{plural(obs.stock_size, "card")} face down">'
                 f'{backs_html(min(obs.stock_size, 1), limit=1)}'
                 f'<span class="mc-count">stock · {plural(obs.stock_size, "card")}</span>'
                 f'</span>')
        laid = _stack_points(state)
        seats = []
        for i, name in enumerate(seat_names):
            parts = []
            for j, stack in enumerate(obs.stacks[i]):
                pts = laid[i][j] if j < len(laid[i]) else 1
                if pts == 2 and len(stack) == 2:
                    # the seed: a special stack is laid as two stacks, two points
                    pair = "".join(stack_html((c,), label="special stack, half") for c in stack)
                    parts.append(f'<span class="mc-special-pair" role="group" aria-label='
                                 f'"special stack: {esc(stack[0].name)} and '
                                 f'{esc(stack[1].name)}, 2 points">{pair}'
                                 f'<span class="mc-count">2 points</span></span>')
                else:
                    parts.append(stack_html(stack, label="stack, 1 point"))
            markers = "".join(
                card_face_html(c, small=True, extra="mc-marker",
                               label=f"run-out point, counted by {c.name} turned face up")
                for c in obs.markers[i])
            missing = obs.run_outs[i] - len(obs.markers[i])
            if missing > 0:
                markers += f'<span class="mc-count">+{plural(missing, "run-out point")}</span>'
            run_out = (f'<span class="mc-runouts" role="group" aria-label="run-out points: '
                       f'{obs.run_outs[i]}">run-out {markers}</span>' if obs.run_outs[i] else "")
            stacks = "".join(parts) or '<span class="mc-count">no stacks yet</span>'
            hand = backs_html(obs.hand_sizes[i], owner=name, own=i == viewer)
            to_act = " mc-to-act" if i == obs.current_player else ""
            score = _score_text(state, obs, i, self.withheld.get(i, 0))
            seats.append(
                f'<div class="mc-seat{to_act}" role="group" aria-label="{esc(name)}">'
                f'<strong>{esc(name)}</strong> · {esc(score)} · hand '
                f'{hand}'
                f'<div class="mc-row mc-stacks" aria-label="'
                f'{esc(possessive(seat_names, i, start=True))} stacks">{stacks}'
                f'{run_out}</div></div>')
        return (f'<div class="mc-zone mc-row">{stock}<div>{dice}</div></div>'
                f'<div class="mc-row mc-seats">{"".join(seats)}</div>')

    def status(self, state: State, seat_names: Sequence[str]) -> str:
        p = state.current_player
        if p is None:
            return "The game is over."
        obs = state.observation(p)
        who = seat_names[p]
        if obs.phase == "roll":
            return f"{who}: roll the dice."
        a, b = obs.dice
        if obs.phase in ("draw", "more"):
            # how many to draw is the engine's (the smaller die, the rest, fewer if the stock
            # is short); only asked while drawing: the stacks phase lists every stack a hand
            # makes, hundreds of thousands for a large hand
            draw = next(x.count for x in state.legal_actions() if isinstance(x, Draw | DrawRest))
        # "I count": the target (the dice's sum) is the student's to say, never printed
        making = f"{who} rolled {a} and {b}" if self.counting else \
            f"{who} rolled {a} and {b}: making {a + b}s"
        if obs.phase == "draw":
            rest = f", then decide whether to draw up to {abs(a - b)} more." if a != b else "."
            return f"{making}. Draw {draw} first{rest}"
        if obs.phase == "more":
            so_far = f"{who}: draw" if self.counting else f"{who}: making {a + b}s. Draw"
            return f"{so_far} {draw} more, or stop with {plural(obs.hand_sizes[p], 'card')}."
        if self.counting:
            return (f"{who}: make stacks of the dice's sum (click cards, then lay them down), "
                    "or end the turn.")
        return (f"{who}: make stacks of {a + b} (click cards, then lay them down), or end the "
                f"turn.")

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
            return (Choice("roll", "Roll the dice", tooltip="roll both dice", primary=True),)
        if isinstance(action, Draw):
            return (Choice("draw", f"Draw {plural(action.count, 'card')}",
                           tooltip="draw the smaller die's number of cards", primary=True),)
        if isinstance(action, DrawRest):
            return (Choice("rest", f"Draw {action.count} more",
                           tooltip="draw up to the larger die's number"),)
        if isinstance(action, StopDrawing):
            ds = cast(DiceStacksState, state)
            n = len(ds.hands[ds.current_player]) if ds.current_player is not None else 0
            return (Choice("stop", f"Stop with {plural(n, 'card')}",
                           tooltip="keep the cards drawn and make stacks"),)
        if isinstance(action, EndTurn):
            return (Choice("end", "End turn", tooltip="keep the cards left for your next turn"),)
        if isinstance(action, LayStack):
            return (Choice("lay", str(action)),)
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
            return True, f"selected: {' '.join(c.symbol for c in cards)}"
        action = LayStack(cards)
        laid = _laid(state, action)
        if laid is not None:  # what if: the engine lays it and says how
            extra = " (special stack: 2 points)" if laid.points == 2 else ""
            return True, f"{_expression(laid)} ✓{extra}"
        return False, f"not a stack: {self.why_not(state, action)}"

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
        return "Stacks this turn: " + "; ".join(reversed(found))

    def history_line(self, event: Event, seat_names: Sequence[str]) -> str | None:
        if isinstance(event, DiceRolled) and self.counting:  # not "making 8s"
            a, b = event.dice
            return f"{seat_name(seat_names, event.player)} rolled {a} and {b}."
        if isinstance(event, CardsDrawn):
            # the cards drawn are hidden: the history says only how many
            who = seat_names[event.player]
            return f"{who} drew {plural(event.count, 'card')}."
        return super().history_line(event, seat_names)


def _laid(state: State, action: LayStack) -> StackLaid | None:
    """The stack ``action`` would lay, by applying it to ``state`` (None: not legal)."""
    if not state.is_legal(action):
        return None
    return next((e for e in state.apply(action).new_events if isinstance(e, StackLaid)), None)


def _expression(event: StackLaid) -> str:
    from mathcards.explain.dice_stacks import step_of

    return step_of(event.shape, event.dice).text if event.shape else f"{event.target}"


def dice_stacks_table(*, players: int = 2, seats: Sequence[str] | None = None,
                      decks: int | None = None, seed: int | None = None,
                      bot_delay: float = 0.8, **kwargs: Any) -> GameTable:
    """A Dice Stacks table: you against bots unless ``seats`` says otherwise."""
    game = DiceStacks(num_players=players, decks=decks)
    from mathcards.widgets.table import GameTable

    return GameTable(DiceStacksView(), game, seats=seats, seed=seed, bot_delay=bot_delay,
                     **kwargs)
