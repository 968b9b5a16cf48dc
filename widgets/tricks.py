"""The table of the two trick games as a ``GameView`` (pure Python, no widgets).

Shoot the Moon and Moons and Planets are taught as guided hands
(``mathcards.widgets.lesson.GuidedHand``), which play on the same
``TableController`` as the arithmetic tables: this view says how their moves
split into choices (a card of the hand, or one of the other moves: planets,
moons, prizes, "Done") and how the public table looks (the trick, the prizes,
the planets and moons laid down). Only public cards and the viewer's own hand
are ever drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from mathcards.cards import Card
from mathcards.games.base import State, action_name
from mathcards.i18n import N_, _, and_list, ngettext
from mathcards.table import Choice, GameView, Refused

from .cards import backs_html, card_back_html, card_face_html, esc, stack_html

if TYPE_CHECKING:  # each engine is imported with its own game's page only
    from mathcards.games.moons_and_planets import MoonsAndPlanetsState, PrizesAwarded
    from mathcards.games.shoot_the_moon import TrickWon

# the save name of each trick game's card play (a card from the hand into the trick)
CARD_PLAY = {"shoot_the_moon": "play", "moons_and_planets": "play-card"}


def played_card_html(card: Card, who: str, *, led: bool = False, note: str = "",
                     won: bool = False) -> str:
    """One card of a trick with who played it under it (the leader and winner marked)."""
    marks = [m for m in (_("led") if led else "", note, _("takes it") if won else "") if m]
    spoken = _("{card}, played by {name}").format(card=card.name, name=who) + "".join(
        f", {m}" for m in marks)
    cls = "mc-played" + (" mc-led" if led else "") + (" mc-won" if won else "")
    tags = "".join(f'<span class="mc-tag">{esc(m)}</span>' for m in marks)
    return (f'<span class="{cls}" role="listitem" aria-label="{esc(spoken)}">'
            f'{card_face_html(card, label=spoken)}'
            f'<span class="mc-played-by">{esc(who)}</span>{tags}</span>')


def trick_html(cards: Sequence[Card], players: Sequence[int], names: Sequence[str], *,
               title: str, notes: Sequence[str] = (), winner: int | None = None,
               waiting: str = "") -> str:
    """A trick in play order (the first card led), each card with its player's name."""
    items = "".join(
        played_card_html(card, seat_name(names, seat), led=i == 0,
                         note=notes[i] if i < len(notes) else "", won=i == winner)
        for i, (card, seat) in enumerate(zip(cards, players, strict=False)))
    if waiting:
        waiting = waiting[0].upper() + waiting[1:]
        items += f'<span class="mc-played mc-waiting" role="listitem">{esc(waiting)}</span>'
    # a list only when it holds items (ARIA: a list's children are list items), else a group
    nothing = _("no card played yet")
    body = items or f'<em>{esc(nothing)}</em>'
    role = ' role="list"' if items else ' role="group"'
    spoken = _("{title}, in play order").format(title=title)
    return (f'<div class="mc-zone mc-trick-zone"><div class="mc-zone-title">{esc(title)}</div>'
            f'<div class="mc-trick"{role} aria-label="{esc(spoken)}">'
            f'{body}</div></div>')


def prize_row_html(prizes: Sequence[Card | None], *, title: str = "",
                   notes: Sequence[str] = ()) -> str:
    """Prizes in order (prize 1 first): face-up ones as faces, face-down ones as backs
    (a back says nothing of its card). ``title`` is "Prizes" unless given."""
    title = title or _("Prizes")
    items = []
    for i, prize in enumerate(prizes):
        label = _("prize {n}").format(n=i + 1)
        face = (card_face_html(prize, label=_("prize {n}: {card}, face up").format(
                    n=i + 1, card=prize.name))
                if prize is not None else card_back_html(
                    label=_("prize {n}, face down").format(n=i + 1)))
        note = f'<span class="mc-tag">{esc(notes[i])}</span>' if i < len(notes) else ""
        items.append(f'<span class="mc-played mc-prize" role="listitem">{face}'
                     f'<span class="mc-played-by">{esc(label)}</span>{note}</span>')
    none = _("none: they are dealt before the next trick")
    body = "".join(items) or f'<em>{esc(none)}</em>'
    role = ' role="list"' if items else ' role="group"'  # a list's children are list items
    return (f'<div class="mc-zone mc-prize-zone"><div class="mc-zone-title">{esc(title)}</div>'
            f'<div class="mc-trick"{role} aria-label="{esc(title)}">{body}</div></div>')


def trick_events(game_name: str) -> tuple[type, type]:
    """(the event of a finished trick, the event of a new deal) of a trick game: its
    engine's own classes, imported with that engine only (a Shoot the Moon page never
    loads Moons and Planets)."""
    if game_name == "shoot_the_moon":
        from mathcards.games.shoot_the_moon import HandDealt, TrickWon

        return TrickWon, HandDealt
    from mathcards.games.moons_and_planets import CardsDealt, PrizesAwarded

    return PrizesAwarded, CardsDealt


class TrickView(GameView):
    """Moves and board of a trick game; ``game_name`` is set per game."""

    MAX_LISTED = 40

    def __init__(self, game_name: str) -> None:
        if game_name not in CARD_PLAY:
            raise ValueError(f"{game_name!r} is not a trick game")
        self.game_name = game_name

    def is_card_play(self, action: Any) -> bool:
        return action_name(action) == CARD_PLAY[self.game_name]

    def card_play(self, state: State, card: Card) -> Any:
        """The action that plays ``card`` into the trick."""
        return state.game.actions[CARD_PLAY[self.game_name]](card)

    def card_phase(self, state: State) -> bool:
        """Only card plays are legal now (a trick is being played)."""
        legal = state.legal_actions()
        return bool(legal) and all(self.is_card_play(a) for a in legal)

    def listed_actions(self, state: State) -> Sequence[Any]:
        """Every card play; of the other moves "Done" and the first ``MAX_LISTED`` (a
        crowded Moons and Planets hand can regroup thousands of ways: the typed-move box
        reads every move, with the engine's parser)."""
        legal = tuple(state.legal_actions())
        cards = [a for a in legal if self.is_card_play(a)]
        others = [a for a in legal if not self.is_card_play(a)]
        done = [a for a in others if action_name(a) == "done"]
        rest = [a for a in others if action_name(a) != "done"][:self.MAX_LISTED]
        return (*cards, *done, *rest)

    def path(self, state: State, action: Any) -> tuple[Choice, ...]:
        if self.is_card_play(action):
            card = action.card
            return (Choice(f"card:{card}", card.symbol, card=card, tooltip=_("play {card}").format(
                card=card.name)),)
        return (Choice(f"move:{action_name(action)}:{action}", str(action)),)

    def card_refusal(self, state: State, card: Card) -> str:
        action = self.card_play(state, card)
        if state.is_legal(action):
            return _("play it")
        if not self.card_phase(state):
            return _("first finish the moves below (or choose Done)")
        return self.why_not(state, action)

    def board_html(self, state: State, obs: Any, seat_names: Sequence[str], *,
                   viewer: int | None = None) -> str:
        """The trick (or the last one), the prizes, and the cards laid down."""
        return self.trick_area_html(state, obs, seat_names) + self.prizes_html(state, obs,
                                                                                seat_names)

    def trick_area_html(self, state: State, obs: Any, seat_names: Sequence[str]) -> str:
        """The trick being played, in play order; between tricks, the last one and who
        took it. Only public cards: the trick and the prizes turned face up."""
        trick = tuple(getattr(obs, "trick", ()))
        players = tuple(getattr(obs, "trick_players", ()))
        to_act = getattr(obs, "to_act", getattr(obs, "current_player", None))
        if trick:
            waiting = (_("{name} to play…").format(name=seat_name(seat_names, to_act))
                       if to_act is not None and not state.is_over else "")
            notes = self._trick_notes(state, trick)
            number = self._trick_number(obs)
            return trick_html(trick, players, seat_names,
                              title=_("Trick {n}").format(n=number),
                              notes=notes, waiting=waiting)
        last = self.last_trick(state)
        if last is None:
            starter = (_("{name} to lead…").format(name=seat_name(seat_names, to_act))
                       if to_act is not None else "")
            if getattr(obs, "phase", None) == "put_down":
                starter = _("Putting cards down before the first trick…")
            return trick_html((), (), seat_names,
                              title=_("Trick {n}").format(n=self._trick_number(obs)),
                              waiting=starter)
        cards, players, winner, notes = last
        return trick_html(cards, players, seat_names, notes=notes, winner=winner,
                          title=_("Last trick: {name} took it").format(
                              name=seat_name(seat_names, players[winner])))

    @staticmethod
    def _trick_number(obs: Any) -> int:
        if hasattr(obs, "trick_number"):
            return int(obs.trick_number)
        return int(getattr(obs, "tricks_played", 0)) + 1

    def _trick_notes(self, state: State, trick: Sequence[Card]) -> list[str]:
        """A word under each card: Moons and Planets' discards; Shoot the Moon's chips."""
        notes = []
        for card in trick:
            if card.is_big_moon:
                notes.append(_("+1 chip"))
            elif card.is_little_moon:
                notes.append(_("−1 chip"))
            else:
                notes.append("")
        if self.game_name == "moons_and_planets" and trick:
            led = trick[0].suit
            notes = ["" if c.suit == led else _("discard") for c in trick]
        return notes

    def last_trick(self, state: State) -> tuple[tuple[Card, ...], tuple[int, ...], int,
                                                   list[str]] | None:
        """The last finished trick of this deal from the public events: its cards, their
        players, the winning card's index and a word under each card (the prize it took)."""
        finished, dealt = trick_events(self.game_name)
        for event in reversed(state.events):
            if isinstance(event, dealt):  # a new deal: no trick of it finished yet
                return None
            if isinstance(event, finished) and self.game_name == "moons_and_planets":
                prized = cast("PrizesAwarded", event)
                places = {i: place for place, i in enumerate(prized.order)}
                notes = [_("prize {n}").format(n=places[i] + 1) if i in places and places[i]
                         < len(prized.prizes) else _("no prize")
                         for i in range(len(prized.cards))]
                return tuple(prized.cards), tuple(prized.players), int(prized.order[0]), notes
            if isinstance(event, finished):  # Shoot the Moon: a trick won
                won = cast("TrickWon", event)
                return (tuple(won.cards), tuple(won.players), int(won.winner_index),
                        self._trick_notes(state, won.cards))
        return None

    def prizes_html(self, state: State, obs: Any, seat_names: Sequence[str]) -> str:
        """Moons and Planets: the prizes (face-down ones as backs) and each seat's planet and
        moons. Shoot the Moon: the chips (its prizes: +1 for a Big Moon taken, −1 for a
        Little Moon, 1 or 2 for an odd number of tricks) and the tricks taken."""
        parts = []
        prizes = getattr(obs, "prizes", None)
        if prizes is not None:
            parts.append(prize_row_html(tuple(prizes),
                                        title=_("Prizes (prize 1 to the highest card)")))
            for seat, (planet, moons) in enumerate(zip(obs.planets, obs.moons, strict=True)):
                if planet or moons:
                    groups = ([stack_html(tuple(planet), label=_("planet"))] if planet
                              else [])
                    groups += [stack_html(tuple(m), label=_("moon {n}").format(n=i + 1))
                               for i, m in enumerate(moons)]
                    laid = _("{name}: planet and moons").format(
                        name=seat_name(seat_names, seat))
                    parts.append(
                        f'<div class="mc-zone"><div class="mc-zone-title">'
                        f'{esc(laid)}</div>'
                        f'<div class="mc-row mc-laid">{"".join(groups)}</div></div>')
            counts = ", ".join(f"{seat_name(seat_names, s)} {n}"
                               for s, n in enumerate(obs.hand_sizes))
            held = _("Cards in hand: {counts} · deck {n}").format(counts=counts,
                                                                  n=obs.deck_size)
            parts.append(f'<div class="mc-count">{esc(held)}</div>')
        elif hasattr(obs, "chips"):
            parts.append(self._chips_html(obs, seat_names))
        return "".join(parts)

    def _chips_html(self, obs: Any, seat_names: Sequence[str]) -> str:
        n = obs.num_players
        rows = []
        for seat in range(n):
            side = obs.side_of(seat)
            taken = obs.tricks_won[seat] if seat < len(obs.tricks_won) else 0
            row = ngettext("{name}: {n} trick", "{name}: {n} tricks", taken).format(
                name=seat_name(seat_names, seat), n=taken)
            if not obs.partnerships:
                row += " · " + ngettext("{n} chip", "{n} chips", obs.chips[side]).format(
                    n=obs.chips[side])
            rows.append(f"<li>{esc(row)}</li>")
        if obs.partnerships:
            for side in sorted({obs.side_of(s) for s in range(n)}):  # sides with seats only
                chips = obs.chips[side]
                seats = and_list(seat_name(seat_names, s) for s in range(n)
                                 if obs.side_of(s) == side)
                together = ngettext("{names}: {n} chip together", "{names}: {n} chips together",
                                    chips).format(names=seats, n=chips)
                rows.append(f"<li>{esc(together)}</li>")
        dummy = ""
        if n == 2:
            dummy = (f'<div class="mc-row">'
                     f'{backs_html(obs.dummy_cards_left, owner=_("dummy"))}</div>')
        title = _("Chips and tricks (round {n}: an odd number of tricks earns a chip, all 5 "
                  "earn 2)").format(n=obs.round_number)
        return (f'<div class="mc-zone mc-prize-zone"><div class="mc-zone-title">{esc(title)}'
                f'</div><ul class="mc-scores">{"".join(rows)}</ul>{dummy}</div>')

    def status(self, state: State, seat_names: Sequence[str]) -> str:
        scores = ", ".join(f"{seat_name(seat_names, s)}: {v}" for s, v in enumerate(state.scores))
        return _("Scores: {scores}").format(scores=scores)


class ShootTheMoonView(TrickView):
    """The Shoot the Moon table (free play: against bots or classmates in a room)."""

    def __init__(self) -> None:
        super().__init__("shoot_the_moon")

    def round_ends(self) -> tuple[type, ...]:
        from mathcards.games.shoot_the_moon.events import RoundScored

        return (RoundScored,)


class MoonsAndPlanetsView(TrickView):
    """The Moons and Planets table (free play: against bots or classmates in a room).

    "Show me the sums" lists every planet and moon the hand makes as a button. At "I
    count" (``counting``) none is listed: putting cards down, the student selects cards
    and lays them down; the selection is a planet while they have none (or the 5♣
    alone), else a new moon or, when it is not one, cards added to one of their moons.
    A planet then asks what its cards total (``mathcards.games.moons_and_planets.questions``), the
    engine checks a moon; nothing on the table says before whether a selection is one.
    """

    selection_mode_hint = N_("click cards to build a planet or a moon, then lay them down")

    def __init__(self) -> None:
        super().__init__("moons_and_planets")

    def selection_mode(self, state: State) -> bool:
        return (self.counting and cast("MoonsAndPlanetsState", state).phase == "put_down"
                and state.current_player is not None)

    def selection_action(self, state: State, cards: tuple[Card, ...]) -> Any:
        from mathcards.games.moons_and_planets import (
            FIVE_OF_CLUBS,
            AddToMoon,
            DeclarePlanet,
            MakeMoon,
        )
        from mathcards.games.moons_and_planets.rules import moon_problem

        mp = cast("MoonsAndPlanetsState", state)
        seat = mp.current_player
        if seat is None:
            raise Refused(_("the game is over: start a new game"))
        if not mp.planets[seat] or tuple(cards) == (FIVE_OF_CLUBS,):
            return DeclarePlanet(cards)
        if moon_problem(cards) is None:
            return MakeMoon(cards)
        for i in range(len(mp.moons[seat])):  # cards that extend one of your moons
            added = AddToMoon(i, cards)
            if state.is_legal(added):
                return added
        return MakeMoon(cards)  # refused with the rule's reason

    def selection_summary(self, state: State, cards: tuple[Card, ...]) -> tuple[bool, str]:
        """Which cards are selected: neither their total nor whether they make a planet
        or a moon (laying them down asks, the engine checks)."""
        if not cards:
            return False, ""
        return True, _("selected: {cards}").format(cards=" ".join(c.symbol for c in cards))

    def listed_actions(self, state: State) -> Sequence[Any]:
        """At "I count", putting cards down: no planet or moon listed (the student builds
        them by selecting cards); the other moves ("Done") as before."""
        if not self.selection_mode(state):
            return super().listed_actions(state)
        from mathcards.games.moons_and_planets import (
            AddToMoon,
            DeclarePlanet,
            MakeMoon,
            Regroup,
        )

        built = (DeclarePlanet, MakeMoon, AddToMoon, Regroup)
        return tuple(a for a in super().listed_actions(state) if not isinstance(a, built))

    def why_not(self, state: State, action: Any) -> str:
        """At "I count" a planet refused for its total says so without the total (the
        student works it out)."""
        reason = super().why_not(state, action)
        if self.counting and action_name(action) == "declare-planet" and " total " in reason:
            from mathcards.cards import cards_shown
            from mathcards.games.moons_and_planets.rules import PLANET_HIGH, PLANET_LOW

            return _("{cards} do not total {low} to {high} (J, Q, K count 10): that is not a "
                     "planet").format(cards=cards_shown(action.cards), low=PLANET_LOW,
                                      high=PLANET_HIGH)
        return reason


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("dummy")
