"""The table as a value: a frozen ``Table`` and one pure ``step(table, intent)``.

Issue 39, item 1. A ``Table`` holds everything one table *is* at the "Show me the sums"
level: the game's state, the seats and the bots' random sources, whose hand this screen
shows, the move being picked, the hint asked for, the status line, and what the table says
about the moves (``Told``: the explainer's words, the move list, the moment). ``step``
takes a table and one typed intent (a click on a card or a button, a typed move, "Next
round", "I'm ready", a bot's turn, a move from the room) and returns the next table and the
effects a runner carries out (save, schedule a bot, announce a moment, the game is over).
It never reads the clock, starts a thread, touches a file or changes its input: a game is
a list of intents, and replaying them gives the same tables.

Randomness is in the value: each bot's ``random.Random`` state is a field, so a bot's
turn is ``step(table, BotTurn(seat))`` and a replay makes the same choices (the same ones
``TableController``'s bots make: ``tests/test_table_value.py`` plays both side by side).

What is still the controller's only (``mathcards.table.TableController``): the questions
of "I count" (``mathcards.asking``), saved games on offer, the game length offer and the
room link. The runner that applies effects is ``run`` below (tests) and, for the pages,
the controller; ``docs/design/table-as-value.md`` says what moves next.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mathcards import saves
from mathcards.bots import BOT_KINDS, Bot
from mathcards.cards import Card, whole_number
from mathcards.errors import IllegalActionError, MathCardsError, SettingsError
from mathcards.game_view import CardState, Choice, GameView, Refused
from mathcards.games.base import Game, State
from mathcards.i18n import N_, _
from mathcards.moments import Moment
from mathcards.table_narration import Explanation, Narration

REMOTE = "remote"  # a classmate at another screen (a room's seat): moves arrive from the room
NEXT_ROUND = "next-round"  # the choice that starts the next round after a round's moment
ROUND_OVER = N_("the round is over: click \"Next round\" to start the next one")


# ---------------------------------------------------------------------------- the value
@dataclass(frozen=True)
class Told:
    """What the table says about its moves (``mathcards.table_narration.Narration`` as a
    value): the explainer's panel, the parts it joins, the move list, the latest move, the
    moment and whether it holds the table, and the next round's deal held back."""

    explanation: Explanation = field(default_factory=Explanation)
    parts: tuple[Explanation, ...] = ()
    history: tuple[str, ...] = ()
    latest: str = ""
    latest_by_bot: bool = False
    moment: Moment | None = None
    held: bool = False
    next_round: tuple[Explanation, tuple[str, ...]] | None = None


@dataclass(frozen=True)
class BotSeat:
    """A seat played by a bot: its kind and its random source's state."""

    seat: int
    kind: str
    rng: tuple[Any, ...]


@dataclass(frozen=True)
class Table:
    """One table at the "Show me the sums" level, as a value (see the module's docstring)."""

    view: GameView = field(compare=False, repr=False)
    state: State
    seats: tuple[str, ...]
    bots: tuple[BotSeat, ...] = ()
    viewer: int | None = None
    deal_code: str = ""
    picked: tuple[str, ...] = ()  # the choices of the move being built (its card...)
    selected: tuple[int, ...] = ()  # indices into the viewer's hand (selection mode)
    hint_level: int = 0
    message: str = ""
    refused: bool = False
    told: Told = field(default_factory=Told)
    pauses: bool = False  # a round's moment holds the table until "Next round"
    person_moved: bool = False

    @property
    def game_name(self) -> str:
        return self.state.game.name


def _with(t: Table, **changes: Any) -> Table:
    """``dataclasses.replace`` for a ``Table`` without re-running ``__init__`` (a step makes
    one or two: ``replace`` cost a fifth of a move's time at a fast table)."""
    new = object.__new__(Table)
    new.__dict__.update(t.__dict__)
    new.__dict__.update(changes)
    return new


# ---------------------------------------------------------------------------- intents
@dataclass(frozen=True)
class ClickCard:
    """A click on a card of the hand: its key ("card:7H", or "h3" when selecting)."""

    key: Any


@dataclass(frozen=True)
class ClickChoice:
    """A click on a choice button: its key ("sign:+", "back", "lay", "next-round"...)."""

    key: Any


@dataclass(frozen=True)
class TypeMove:
    """A typed move ("7H -"), read by the game's move parser."""

    text: Any


@dataclass(frozen=True)
class NextRound:
    """"Next round" after a round's moment."""


@dataclass(frozen=True)
class Ready:
    """The hot-seat player to act shows their hand ("I'm ready")."""


@dataclass(frozen=True)
class AskHint:
    """A hint of ``level`` (1: a nudge, 2: which card, 3: the whole move)."""

    level: Any


@dataclass(frozen=True)
class BotTurn:
    """The bot at ``seat`` moves (a stale turn, for a seat not to act, does nothing)."""

    seat: int


@dataclass(frozen=True)
class RemoteMove:
    """A move made at another screen of the room (already stored there)."""

    action: Any


Intent = ClickCard | ClickChoice | TypeMove | NextRound | Ready | AskHint | BotTurn | RemoteMove


# ---------------------------------------------------------------------------- effects
@dataclass(frozen=True)
class SaveTable:
    """Save the table after a move (a finished game's save is cleared)."""

    state: State
    seats: tuple[str, ...]


@dataclass(frozen=True)
class ScheduleBot:
    """A bot is to move: the runner feeds ``BotTurn(seat)`` now or after its pause."""

    seat: int


@dataclass(frozen=True)
class AnnounceMoment:
    """A round or the game was won: the page shows it."""

    moment: Moment


@dataclass(frozen=True)
class GameOver:
    """The game was played to its end here (the page records it for assignments)."""

    state: State


@dataclass(frozen=True)
class RefusedIntent:
    """The intent was refused: ``reason`` is the status line (the table is otherwise
    unchanged)."""

    reason: str


Effect = SaveTable | ScheduleBot | AnnounceMoment | GameOver | RefusedIntent
Stepped = tuple[Table, tuple[Effect, ...]]


# ---------------------------------------------------------------------------- dealing
def deal(view: GameView, game: Game, seats: Sequence[str], seed: int, *,
         private_seed: int | None = None, bot_seed: int | None = None,
         pauses: bool = False) -> Stepped:
    """A new table: ``game`` dealt from ``seed``, its bots seeded as ``TableController``
    seeds them. A game whose deal codes keep the hands hidden (``saves.has_private_deal``)
    needs ``private_seed``, the table's secret for every card the code does not decide
    (``saves.new_private_seed()``: the caller draws it, ``deal`` reads no random source)."""
    seats = tuple(seats)
    people = [i for i, k in enumerate(seats) if k == "human"]
    if saves.has_private_deal(game):
        if private_seed is None:
            raise SettingsError(f"{game.title} deals hands in secret: give deal() the "
                                "table's secret (private_seed=saves.new_private_seed())")
        state = game.new_game(seed, private_seed=private_seed,
                              known_seat=people[0] if len(people) == 1 else None)
    else:
        state = game.new_game(seed)
    base = (state.seed ^ state.private_seed) % 2**32 if bot_seed is None else bot_seed
    bots = tuple(BotSeat(i, kind, random.Random(base * 31 + i).getstate())
                 for i, kind in enumerate(seats) if kind in BOT_KINDS)
    table = Table(view=view, state=state, seats=seats, bots=bots,
                  viewer=people[0] if len(people) == 1 else None,
                  deal_code=saves.deal_code(game, seed), pauses=pauses and bool(people))
    narration = Narration(view)
    narration.reset(state, seat_names(table))
    table = _handed_over(replace(table, told=_told(narration)))
    return table, _bot_due(table)


# ---------------------------------------------------------------------------- reading
def seat_names(t: Table) -> tuple[str, ...]:
    """"Player 2 (bot)", "Player 1 (you)" (one person here) or "Player 1" (hot seat)."""
    return names_of_seats(t.seats)


def names_of_seats(seats: Sequence[str]) -> tuple[str, ...]:
    """The seats' names at a table of no room (shared with ``TableController``)."""
    humans = sum(1 for k in seats if k == "human")
    names = []
    for i, kind in enumerate(seats):
        if kind == "human":
            names.append(_("Player {n} (you)").format(n=i + 1) if humans == 1
                         else _("Player {n}").format(n=i + 1))
        else:
            names.append(_("Player {n} (bot)").format(n=i + 1))
    return tuple(names)


def humans(t: Table) -> tuple[int, ...]:
    return tuple(i for i, k in enumerate(t.seats) if k == "human")


def acting_human(t: Table) -> bool:
    p = t.state.current_player
    return p is not None and t.seats[p] == "human" and t.viewer == p


def holding(t: Table) -> bool:
    """A round's moment is shown and nobody moves until "Next round" is clicked."""
    return t.told.held and t.told.moment is not None and not t.state.is_over


def waiting_for_ready(t: Table) -> int | None:
    """The hot-seat player whose hand stays hidden until they click "I'm ready"."""
    p = t.state.current_player
    if p is not None and len(humans(t)) >= 2 and t.seats[p] == "human" and t.viewer != p:
        return p
    return None


def hand(t: Table) -> tuple[Card, ...]:
    """The hand this screen shows (none while a round's moment waits)."""
    if t.viewer is None or holding(t):
        return ()
    return tuple(getattr(t.state.observation(t.viewer), "hand", ()))


def not_your_turn(t: Table) -> str:
    return not_your_turn_words(t.state, t.seats, seat_names(t))


def not_your_turn_words(state: State, seats: Sequence[str], names: Sequence[str]) -> str:
    """Why a person cannot move now, in words (shared with ``TableController``)."""
    p = state.current_player
    if p is None:
        return _("the game is over: start a new game")
    name = names[p]
    if seats[p] == REMOTE:
        return _("it is {name}'s turn: wait for their move").format(name=name)
    if seats[p] != "human":
        return _("it is {name}'s turn; wait for the bot to move").format(name=name)
    return _("it is {name}'s turn: click \"I'm ready\" first").format(name=name)


def stage(view: GameView, state: State, picked: tuple[str, ...],
          ) -> tuple[list[tuple[Any, tuple[Choice, ...]]], dict[str, Choice]]:
    """The legal actions matching the picks so far, and the next stage's choices (shared
    with ``TableController``)."""
    depth = len(picked)
    matching = []
    choices: dict[str, Choice] = {}
    for action in view.listed_actions(state):
        steps = view.path(state, action)
        if tuple(c.key for c in steps[:depth]) != picked:
            continue
        matching.append((action, steps))
        if len(steps) > depth:
            choices.setdefault(steps[depth].key, steps[depth])
    return matching, choices


def choice_refusal(view: GameView, state: State, picked: tuple[str, ...], key: str,
                   shown: Sequence[Card]) -> str:
    """Why ``key`` is not a choice now, in words (shared with ``TableController``)."""
    reason = _("that choice is not one of the moves allowed now")
    for off in view.refused_choices(state, picked):
        if off.key == key:
            reason = off.tooltip
    if key.startswith("card:"):
        card = next((c for c in shown if f"card:{c}" == key), None)
        if card is not None and picked and key in stage(view, state, ())[1]:
            reason = _("{card} can be played too: click Back to choose it "
                       "instead").format(card=card.symbol)
        elif card is not None:
            reason = f"{card.symbol}: {view.card_refusal(state, card)}"
    return reason


def completed(matching: Sequence[tuple[Any, tuple[Choice, ...]]],
              picked: tuple[str, ...]) -> Any | None:
    """The one action ``picked`` names in full with no longer move starting the same way,
    else None (shared with ``TableController``)."""
    done = [a for a, steps in matching
            if len(steps) == len(picked) and tuple(c.key for c in steps) == picked]
    longer = [a for a, steps in matching if len(steps) > len(picked)
              and tuple(c.key for c in steps[:len(picked)]) == picked]
    return done[0] if len(done) == 1 and not longer else None


def card_states(t: Table) -> list[CardState]:
    """Each card of the shown hand: what a click names, enabled, selected, tooltip."""
    return hand_states(t.view, t.state, hand(t), t.picked, t.selected,
                       acting=acting_human(t) and not holding(t))


def hand_states(view: GameView, state: State, shown: Sequence[Card], picked: tuple[str, ...],
                selected: tuple[int, ...], *, acting: bool) -> list[CardState]:
    """Each card of ``shown`` (the hand on the screen) as a click offers it, for a person
    who may move now (``acting``) or not (shared with ``TableController``)."""
    selection = acting and view.selection_mode(state)
    choices = stage(view, state, picked)[1] if acting and not selection else {}
    # while a card is chosen, the others that start a move stay offered (truly)
    firsts = stage(view, state, ())[1] if acting and not selection and picked else {}
    picked_cards = {k for k in picked if k.startswith("card:")}
    out = []
    for i, card in enumerate(shown):
        key = f"card:{card}"
        if selection:
            out.append(CardState(card, f"h{i}", True, i in selected,
                                 _("click to put in or take out of the stack")))
        elif acting and key in choices:
            out.append(CardState(card, key, True, False, choices[key].tooltip or _("play it")))
        elif acting and key in picked_cards:
            out.append(CardState(card, key, False, True, _("chosen")))
        elif acting and key in firsts:  # playable, once the chosen card is put back
            out.append(CardState(card, key, False, False,
                                 _("can be played too: click Back to choose it instead")))
        elif acting:
            out.append(CardState(card, key, False, False, _("cannot be played now: {why}").format(
                why=view.card_refusal(state, card))))
        else:
            out.append(CardState(card, key, False))
    return out


def offered_choices(t: Table) -> list[Choice]:
    """The choice buttons to show now (keys "off:..." are shown disabled with a reason)."""
    if holding(t):
        return [Choice(NEXT_ROUND, _("Next round"), tooltip=_("start the next round"),
                       primary=True)]
    wanted: list[Choice] = []
    if acting_human(t):
        if t.view.selection_mode(t.state):
            wanted += selection_choices(t.view, t.state, selected_cards(t))
        else:
            choices = stage(t.view, t.state, t.picked)[1]
            wanted += [c for c in choices.values() if c.card is None]
            wanted += t.view.refused_choices(t.state, t.picked)
            if t.picked:
                wanted.append(Choice("back", _("Back"), tooltip=_("choose again")))
    return list({c.key: c for c in wanted}.values())  # a key is one button


def selected_cards(t: Table) -> tuple[Card, ...]:
    shown = hand(t)
    return tuple(shown[i] for i in t.selected if 0 <= i < len(shown))


def selection_choices(view: GameView, state: State, cards: tuple[Card, ...]) -> list[Choice]:
    """Buttons in selection mode: lay down the selected cards, clear, other moves (shared
    with ``TableController``)."""
    out: list[Choice] = []
    if cards:
        action = view.selection_action(state, cards)
        names = " ".join(c.symbol for c in cards)
        lay = _("Lay down {cards}").format(cards=names)
        if view.counting:  # "I count": offered whatever the cards make (no hint)
            out.append(Choice("lay", lay, tooltip=_("lay them down, then say what they make"),
                              primary=True))
        elif state.is_legal(action):
            out.append(Choice("lay", lay, tooltip=str(action), primary=True))
        else:  # only legal moves are enabled; the reason is the line under the hand
            out.append(Choice("off:lay", lay,
                              tooltip=view.selection_summary(state, cards)[1]))
        out.append(Choice("clear", _("Clear selection")))
    for action in view.listed_actions(state):
        out.extend(view.path(state, action)[:1])
    return out


def final_words(state: State, names: Sequence[str]) -> str:
    """"Game over: Player 1 (you) wins! Scores: ..." from the engine's scores."""
    scores = state.scores
    best = max(scores)
    winners = [i for i, s in enumerate(scores) if s == best]
    listed = ", ".join(f"{names[i]} {s}" for i, s in enumerate(scores))
    if len(winners) == 1:
        return _("Game over: {name} wins! Scores: {scores}.").format(
            name=names[winners[0]], scores=listed)
    return _("Game over: a tie between {names}. Scores: {scores}.").format(
        names=", ".join(names[i] for i in winners), scores=listed)


# ---------------------------------------------------------------------------- step
def step(t: Table, intent: Intent) -> Stepped:
    """The table after ``intent``, and the effects to carry out. A refused intent gives
    the same table with the reason as its status line, and a ``RefusedIntent`` effect."""
    try:
        return _step(t, intent)
    except IllegalActionError as exc:
        reason = exc.reason
    except MathCardsError as exc:  # Refused, bad card text...
        reason = str(exc)
    return _with(t, message=reason, refused=True), (RefusedIntent(reason),)


def _quiet(t: Table, **changes: Any) -> Stepped:
    """The table with ``changes`` and the status line cleared: no effect."""
    return _with(t, message="", refused=False, **changes), ()


def _step(t: Table, intent: Intent) -> Stepped:
    if isinstance(intent, ClickCard):
        return _click_card(t, intent.key)
    if isinstance(intent, ClickChoice):
        return _click_choice(t, intent.key)
    if isinstance(intent, TypeMove):
        return _type_move(t, intent.text)
    if isinstance(intent, NextRound):
        return _next_round(t)
    if isinstance(intent, Ready):
        p = t.state.current_player
        if p is None or t.seats[p] != "human" or holding(t):
            return t, ()
        return _quiet(t, viewer=p)
    if isinstance(intent, AskHint):
        return _ask_hint(t, intent.level)
    if isinstance(intent, BotTurn):
        return _bot_turn(t, intent.seat)
    if isinstance(intent, RemoteMove):
        if not t.state.is_legal(intent.action):
            raise Refused(_("that is not a move of this game"))
        return _commit(t, intent.action, by_bot=True)
    raise Refused(_("that is not something a table can do"))


def _click_card(t: Table, key: Any) -> Stepped:
    if holding(t):
        raise Refused(_(ROUND_OVER))
    if not isinstance(key, str) or not acting_human(t):
        raise Refused(not_your_turn(t))
    if t.view.selection_mode(t.state):
        i = whole_number(key[1:], longest=3) if key.startswith("h") else None
        i = -1 if i is None else i
        if not 0 <= i < len(hand(t)):
            raise Refused(_("that card is not in your hand"))
        sel = tuple(s for s in t.selected if s != i) if i in t.selected else (*t.selected, i)
        return _quiet(t, selected=sel)
    return _choose(t, key)


def _click_choice(t: Table, key: Any) -> Stepped:
    if key == NEXT_ROUND:
        return _next_round(t)
    if not isinstance(key, str) or not acting_human(t):
        raise Refused(not_your_turn(t))
    if key == "back":
        return _quiet(t, picked=t.picked[:-1])
    if key in ("lay", "off:lay"):
        cards = selected_cards(t)
        if not cards:
            raise Refused(_("select cards from your hand first"))
        return _play(t, t.view.selection_action(t.state, cards))
    if key == "clear":
        return _quiet(t, selected=())
    return _choose(t, key)


def _choose(t: Table, key: str) -> Stepped:
    matching, choices = stage(t.view, t.state, t.picked)
    if key not in choices:
        raise Refused(choice_refusal(t.view, t.state, t.picked, key, hand(t)))
    picked = (*t.picked, key)
    action = completed(matching, picked)
    if action is not None:
        return _play(t, action)
    return _quiet(t, picked=picked)


def _type_move(t: Table, text: Any) -> Stepped:
    if holding(t):
        raise Refused(_(ROUND_OVER))
    if not isinstance(text, str) or not text.strip():
        raise Refused(_("type a move first, e.g. {example}").format(
            example=t.state.game.move_example))
    if len(text) > 80:
        raise Refused(_("that is too long to be a move"))
    if not acting_human(t):
        raise Refused(not_your_turn(t))
    return _play(t, t.view.parse_move(t.state, text))


def _ask_hint(t: Table, level: Any) -> Stepped:
    if not acting_human(t):
        raise Refused(not_your_turn(t))
    if type(level) is not int or level not in (1, 2, 3):
        raise Refused(_("choose a hint from the buttons"))
    return _quiet(t, hint_level=level) if t.refused else (_with(t, hint_level=level), ())


def _next_round(t: Table) -> Stepped:
    if not holding(t):
        raise Refused(_("no round is waiting to start"))
    narration = _narration(t)
    narration.start_next_round()  # the deal held back is said now
    table = _with(t, told=_told(narration), message="", refused=False)
    return _handed_over(table), _bot_due(table)


def _play(t: Table, action: Any) -> Stepped:
    """A person's move: checked against the legal actions, then laid with the move that
    follows it by itself (``GameView.follow_up``)."""
    if holding(t):
        raise Refused(_(ROUND_OVER))
    if not acting_human(t):
        raise Refused(not_your_turn(t))
    if not t.state.is_legal(action):
        if isinstance(action, t.state.game.action_types):
            raise Refused(t.view.why_not(t.state, action))
        raise Refused(_("that is not a move of this game"))
    table, effects = _commit(t, action, by_bot=False)
    follow = t.view.follow_up(table.state)
    if (follow is not None and acting_human(table) and not holding(table)
            and table.state.is_legal(follow)):
        table, more = _commit(table, follow, by_bot=True)  # shown with the move it follows
        effects = _merged(effects, more)
    return table, effects


def _bot_turn(t: Table, seat: int) -> Stepped:
    p = t.state.current_player
    if p is None or p != seat or t.seats[p] not in BOT_KINDS or holding(t):
        return t, ()  # a stale turn: another game's, or held by a round's moment
    bot_seat = next(b for b in t.bots if b.seat == seat)
    bot = Bot(t.game_name, bot_seat.kind)
    bot.rng.setstate(bot_seat.rng)
    action = bot.choose(t.state)
    moved = BotSeat(seat, bot_seat.kind, bot.rng.getstate())
    return _commit(t, action, by_bot=True,
                   bots=tuple(moved if b.seat == seat else b for b in t.bots))


def _commit(t: Table, action: Any, *, by_bot: bool, **also: Any) -> Stepped:
    """Play a legal action: the new state, its explanation, the move list, its moment, the
    status line, and the effects (save, moment, game over, the next bot)."""
    before = t.state
    after = before.apply(action)  # apply re-checks legality
    names = seat_names(t)
    narration = _narration(t)
    narration.explain(before, after, names, by_bot=by_bot)
    narration.record(after, names, by_bot=by_bot)
    narration.find_moment(before, after, names, humans(t), pauses=t.pauses, by_bot=by_bot)
    message = final_words(after, names) if after.is_over else ""
    table = _with(t, state=after, picked=(), selected=(), hint_level=0,
                    told=_told(narration), message=message, refused=False,
                    person_moved=t.person_moved or not by_bot, **also)
    effects: list[Effect] = [SaveTable(after, t.seats)]
    if narration.moment is not None:
        effects.append(AnnounceMoment(narration.moment))
    if after.is_over:
        effects.append(GameOver(after))
    if by_bot:  # a hot seat waiting for its player keeps the hand hidden
        if waiting_for_ready(table) is not None:
            table = _with(table, viewer=None)
    else:
        table = _handed_over(table)
    return table, (*effects, *_bot_due(table))


def _handed_over(t: Table) -> Table:
    """Hot seat: the last hand is hidden until the next player is ready."""
    return _with(t, viewer=None) if waiting_for_ready(t) is not None else t


def _bot_due(t: Table) -> tuple[Effect, ...]:
    p = t.state.current_player
    if p is not None and t.seats[p] in BOT_KINDS and not holding(t):
        return (ScheduleBot(p),)
    return ()


def _merged(first: tuple[Effect, ...], then: tuple[Effect, ...]) -> tuple[Effect, ...]:
    """The effects of two commits in one step: the later bot turn only."""
    return (*(e for e in first if not isinstance(e, ScheduleBot)), *then)


def _narration(t: Table) -> Narration:
    """A fresh ``Narration`` holding ``t.told`` (``step`` never changes the table's own)."""
    n = Narration(t.view)
    told = t.told
    n.explanation, n.parts, n.history = told.explanation, list(told.parts), list(told.history)
    n.latest, n.latest_by_bot, n.moment, n.held = (told.latest, told.latest_by_bot,
                                                  told.moment, told.held)
    n.next_round = (None if told.next_round is None
                    else (told.next_round[0], list(told.next_round[1])))
    return n


def _told(n: Narration) -> Told:
    nxt = None if n.next_round is None else (n.next_round[0], tuple(n.next_round[1]))
    return Told(n.explanation, tuple(n.parts), tuple(n.history), n.latest, n.latest_by_bot,
                n.moment, n.held, nxt)


# ---------------------------------------------------------------------------- a runner
def run(t: Table, intents: Sequence[Intent], *, bots: bool = True,
        pending: Sequence[Effect] = ()) -> Stepped:
    """Apply ``intents`` one after another, and each bot's turn as soon as it is due (a
    fast table: no pause, no thread): the simplest runner, for tests and replays.
    ``pending`` are effects not yet carried out (``deal``'s first bot turn)."""
    effects: list[Effect] = []

    def settle(table: Table, new: tuple[Effect, ...]) -> Table:
        effects.extend(new)
        due = [e for e in new if isinstance(e, ScheduleBot)]
        while bots and due:
            table, new = step(table, BotTurn(due[-1].seat))
            effects.extend(new)
            due = [e for e in new if isinstance(e, ScheduleBot)]
        return table

    t = settle(t, tuple(pending))
    for intent in intents:
        t = settle(*step(t, intent))
    return t, tuple(effects)
