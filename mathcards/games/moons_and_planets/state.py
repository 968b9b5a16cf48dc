"""The Moons and Planets engine: the game's settings, a position and its transitions."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, TypeAlias

from mathcards.cards import SUIT_NAMES, Card, cards_shown, standard_deck
from mathcards.errors import MathCardsError, SettingsError
from mathcards.games.base import EMPTY, Event, Game, State, rng_for, seat_name
from mathcards.games.moons_and_planets.actions import (
    DONE,
    PUT_DOWN_ACTIONS,
    AddToMoon,
    DeclarePlanet,
    Done,
    MakeMoon,
    PlayCard,
    Regroup,
    TurnPrize,
    _play_card,
    _turn_prizes,
)
from mathcards.games.moons_and_planets.events import (
    CardPlayed,
    CardsDealt,
    DeckReshuffled,
    GameWon,
    MoonExtended,
    MoonMade,
    MoonsRegrouped,
    PlanetDeclared,
    PlanetSwitched,
    PrizesAwarded,
    PrizesDealt,
    PrizeTurned,
    SatOut,
)
from mathcards.games.moons_and_planets.rules import (
    FIVE_OF_CLUBS,
    HAND_SIZE,
    OVER,
    PLAY,
    PUT_DOWN,
    TURN_PRIZE,
    Phase,
    _not_standard,
    _playable,
    _prize_order,
    _rank_key,
    _rank_trick,
    moon_problem,
    moon_reason,
    planet_problem,
    planet_reason,
)
from mathcards.games.moons_and_planets.search import (
    PutDownOptions,
    _addition_moves,
    _moon_moves,
    _planet_moves,
    regroup_options,
)
from mathcards.i18n import Said, _, later, ngettext


# --- what one player sees -----------------------------------------------------------
class Observation(NamedTuple):
    """What ``player`` may see: own hand, the table, and other hands only as counts.

    A named tuple: immutable, and built at tuple speed (bots ask for one every move).
    """

    player: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    planets: tuple[tuple[Card, ...], ...]
    moons: tuple[tuple[tuple[Card, ...], ...], ...]
    prizes: tuple[Card | None, ...]  # None = face down
    face_up: int | None
    trick: tuple[Card, ...]
    trick_players: tuple[int, ...]
    deck_size: int
    discard_size: int
    tricks_played: int


_Change = tuple[dict[str, Any], list[Event]]  # the changed fields and the events of a move


# --- the game -----------------------------------------------------------------------
@dataclass(frozen=True)
class MoonsAndPlanets(Game):
    """Moons and Planets for 2-5 players: tricks win prizes, planets and moons empty your hand."""

    name: ClassVar[str] = "moons_and_planets"
    title: ClassVar[str] = "Moons and Planets"
    move_example: ClassVar[str] = "play 7H"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    actions: ClassVar[Mapping[str, type]] = {
        "turn-prize": TurnPrize,
        "play-card": PlayCard,
        "declare-planet": DeclarePlanet,
        "make-moon": MakeMoon,
        "add-to-moon": AddToMoon,
        "regroup": Regroup,
        "done": Done,
    }
    v1_actions: ClassVar[Mapping[str, str]] = {
        "TurnPrize": "turn-prize",
        "PlayCard": "play-card",
        "DeclarePlanet": "declare-planet",
        "MakeMoon": "make-moon",
        "AddToMoon": "add-to-moon",
        "Regroup": "regroup",
        "Done": "done",
    }

    trick_limit: int = 200

    def __post_init__(self) -> None:
        super().__post_init__()
        limit = self.trick_limit
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
            raise SettingsError(
                f"trick_limit must be a whole number from 1 to 10000 (the tricks before the "
                f"fewest cards in hand win), not {limit!r}"
            )

    def deck(self) -> tuple[Card, ...]:
        return standard_deck()

    def _new_game(self, seed: int) -> MoonsAndPlanetsState:
        cards = list(standard_deck())
        rng_for(seed, 0).shuffle(cards)
        n = self.num_players
        hands = tuple(tuple(sorted(cards[i : n * HAND_SIZE : n])) for i in range(n))
        return MoonsAndPlanetsState(
            game=self,
            seed=seed,
            log=EMPTY.push((CardsDealt(None, HAND_SIZE, n),)),
            hands=hands,
            planets=((),) * n,
            moons=((),) * n,
            deck=tuple(cards[n * HAND_SIZE :]),
            queue=tuple(range(n)),
        )


# every action of this game: the classes of its ``actions`` (tests/test_typing.py checks)
MoonsAndPlanetsAction: TypeAlias = (TurnPrize | PlayCard | DeclarePlanet | MakeMoon | AddToMoon
                                     | Regroup | Done)


@dataclass(frozen=True, kw_only=True)
class MoonsAndPlanetsState(State[MoonsAndPlanets, MoonsAndPlanetsAction]):
    """A position of Moons and Planets (see the module docstring for the rules)."""


    hands: tuple[tuple[Card, ...], ...]
    planets: tuple[tuple[Card, ...], ...]
    moons: tuple[tuple[tuple[Card, ...], ...], ...]
    deck: tuple[Card, ...]  # index 0 is the top
    discard: tuple[Card, ...] = ()
    prizes: tuple[Card, ...] = ()
    face_up: int | None = None
    trick: tuple[Card, ...] = ()
    trick_players: tuple[int, ...] = ()
    phase: Phase = Phase.PUT_DOWN
    queue: tuple[int, ...] = ()  # players still to put down this time, first is on turn
    leader: int = 0  # who leads the next trick (the last trick's winner)
    tricks_played: int = 0
    won_by: tuple[int, ...] = ()

    # --- protocol ---------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self.phase == PUT_DOWN:
            return self.queue[0]
        if self.phase == TURN_PRIZE:
            return self.trick_players[0]
        if self.phase == PLAY:
            return self.trick_players[len(self.trick)]
        return None

    @property
    def _seat(self) -> int:
        """The seat to act, while the game runs."""
        seat = self.current_player
        if seat is None:
            raise MathCardsError(_("the game is over: nobody is to act"))
        return seat

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(1 if p in self.won_by else 0 for p in range(self.game.num_players))

    def all_cards(self) -> Iterable[Card]:
        for hand in self.hands:
            yield from hand
        for planet in self.planets:
            yield from planet
        for groups in self.moons:
            for group in groups:
                yield from group
        yield from self.deck
        yield from self.discard
        yield from self.prizes
        yield from self.trick

    def observation(self, player: int) -> Observation:
        n = self.game.num_players
        if (type(player) is not int or not 0 <= player < n) and (
                isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n):
            raise SettingsError(f"player must be a seat from 0 to {n - 1}, not {player!r}")
        return Observation(
            player=player,
            phase=self.phase,
            to_act=self.current_player,
            hand=self.hands[player],
            hand_sizes=tuple(map(len, self.hands)),
            planets=self.planets,
            moons=self.moons,
            prizes=self._visible_prizes(),
            face_up=self.face_up,
            trick=self.trick,
            trick_players=self.trick_players,
            deck_size=len(self.deck),
            discard_size=len(self.discard),
            tricks_played=self.tricks_played,
        )

    def _visible_prizes(self) -> tuple[Card | None, ...]:
        if self.face_up is None:
            return (None,) * len(self.prizes)
        shown: list[Card | None] = [None] * len(self.prizes)
        shown[self.face_up] = self.prizes[self.face_up]
        return tuple(shown)

    # --- legal actions ------------------------------------------------------------
    def _legal_actions(self) -> Collection[Any]:
        if self.phase == TURN_PRIZE:
            return _turn_prizes(len(self.prizes))
        if self.phase == PLAY:
            return tuple(map(_play_card, self._playable_cards(self._seat)))
        return self._put_down_options()

    def _playable_cards(self, player: int) -> tuple[Card, ...]:
        """The cards ``player`` may play to the trick: the led suit if they can follow."""
        hand = self.hands[player]
        if self.trick:
            led = self.trick[0].suit
            following = [c for c in hand if c.suit == led and _playable(c)]
            if following:
                return tuple(following)
        return tuple([c for c in hand if _playable(c)])

    def _put_down_options(self) -> PutDownOptions:
        player = self.queue[0]
        hand = self.hands[player]
        if not self.planets[player]:
            return PutDownOptions(_planet_moves(hand))
        listed: list[Any] = list(_moon_moves(hand))
        moons = self.moons[player]
        if moons:
            for i, group in enumerate(moons):
                listed.extend(_addition_moves(i, group, hand))
            listed.extend(regroup_options(hand, moons))
        listed.append(DONE)
        return PutDownOptions(tuple(listed))

    def _put_down_problem(self, action: Any) -> str | None:
        """The rule refusing a putting-down move (None: the move is allowed)."""
        if self.phase != PUT_DOWN:
            return self._not_now()
        if isinstance(action, Done):
            return None
        player = self.queue[0]
        hand = set(self.hands[player])
        planet = self.planets[player]
        moons = self.moons[player]
        if isinstance(action, Regroup):
            cards = tuple(c for g in action.groups for c in g)
        else:
            cards = action.cards
        if not cards:
            return _("name the cards you want to put down")
        if len(set(cards)) != len(cards):
            return _("{cards} names a card twice").format(cards=cards_shown(cards))
        if isinstance(action, DeclarePlanet):
            if planet:
                return _("you already have a planet ({cards}): only one planet each").format(
                    cards=cards_shown(planet))
            missing = [c for c in cards if c not in hand]
            if missing:
                return _("you do not hold {cards}").format(cards=cards_shown(missing))
            problem = planet_problem(cards)
            if problem:
                return problem
            if FIVE_OF_CLUBS in hand and cards != (FIVE_OF_CLUBS,):
                return _("you hold the 5♣, the automatic planet: declare it (another planet "
                         "would have to be switched for it at once)")
            return None
        if not planet:
            return _("moons need a planet first: put down a planet before any moon")
        if isinstance(action, MakeMoon):
            missing = [c for c in cards if c not in hand]
            if missing:
                return _("you do not hold {cards}").format(cards=cards_shown(missing))
            return moon_problem(cards)
        if isinstance(action, AddToMoon):
            if isinstance(action.moon, bool) or not isinstance(action.moon, int):
                return _("say which moon to add to by its number")
            if not 0 <= action.moon < len(moons):
                if not moons:
                    return _("you have no moon to add to yet: make a moon first")
                return ngettext("you have {n} moon: choose moon 1 to {n}",
                                "you have {n} moons: choose moon 1 to {n}",
                                len(moons)).format(n=len(moons))
            missing = [c for c in cards if c not in hand]
            if missing:
                return _("you do not hold {cards}").format(cards=cards_shown(missing))
            group = moons[action.moon]
            problem = moon_problem((*group, *cards))
            if problem:
                return _("adding {cards} to moon {moon}: {problem}").format(
                    cards=cards_shown(cards), moon=cards_shown(group), problem=problem)
            return None
        if isinstance(action, Regroup):
            if not moons:
                return _("you have no moons to regroup: make a moon first")
            moon_cards = {c for g in moons for c in g}
            left_out = moon_cards - set(cards)
            if left_out:
                return _("a regrouping must use every card of your moons (missing {cards}): "
                         "moon cards never return to hand").format(
                    cards=cards_shown(sorted(left_out)))
            added = [c for c in cards if c not in moon_cards]
            foreign = [c for c in added if c not in hand]
            if foreign:
                return _("you do not hold {cards}").format(cards=cards_shown(foreign))
            if not added:
                return _("a regrouping must put down at least one card from your hand")
            for g in action.groups:
                problem = moon_problem(g)
                if problem:
                    return problem
            for g in action.groups:
                if moon_cards.isdisjoint(g):
                    return _("{cards} are all from your hand: make them a new moon, and "
                             "regroup only moons that hold cards of your old moons").format(
                        cards=cards_shown(g))
            return None
        return _("it is not a Moons and Planets move")  # pragma: no cover

    def _not_now(self) -> str:
        if self.phase == TURN_PRIZE:
            return _("{who} must first turn a prize face up").format(
                who=seat_name((), self._seat))
        if self.phase == PLAY:
            return _("a trick is being played: {who} plays a card now").format(
                who=seat_name((), self._seat))
        if self.phase == PUT_DOWN:
            return _("cards are being put down now: play to a trick only once everyone is done")
        return _("the game is over")

    def why_illegal(self, action: Any) -> str:
        if isinstance(action, PUT_DOWN_ACTIONS):
            problem = self._put_down_problem(action)
            return problem or _("it is not one of the moves allowed now")
        if isinstance(action, TurnPrize):
            if self.phase != TURN_PRIZE:
                return (
                    _("a prize is turned face up only before the lead")
                    if self.phase != PUT_DOWN
                    else self._not_now()
                )
            return _("choose a prize from 1 to {n}").format(n=len(self.prizes))
        if isinstance(action, PlayCard):
            if self.phase != PLAY:
                return self._not_now()
            card = action.card
            if not card.is_standard:
                return _not_standard((card,)) or ""
            if card.rank == 1:
                return _("aces cannot be played to a trick: an ace is only ever a moon")
            if card == FIVE_OF_CLUBS:
                return _("the 5♣ cannot be played to a trick: it is only ever a planet")
            player = self._seat
            if card not in self.hands[player]:
                return _("you do not hold {cards}").format(cards=card.symbol)
            # a held card refused mid-trick: the player can follow, and must
            return _("you must follow {suit}: you hold {cards}").format(
                suit=_(SUIT_NAMES[self.trick[0].suit]),
                cards=cards_shown(self._playable_cards(player)))
        return _("it is not one of the moves allowed now")

    # --- applying ----------------------------------------------------------------------
    def _apply(self, action: Any) -> _Change:
        if isinstance(action, TurnPrize):
            card = self.prizes[action.index]
            player = self._seat
            return {"face_up": action.index, "phase": PLAY}, [
                PrizeTurned(player, action.index, card)
            ]
        if isinstance(action, PlayCard):
            return self._play(action.card)
        return self._put_down(action)

    def _play(self, card: Card) -> _Change:
        player = self._seat
        led = not self.trick
        follows = led or card.suit == self.trick[0].suit
        hands = list(self.hands)
        hand = hands[player]
        at = hand.index(card)  # a legal card is in the hand exactly once
        hands[player] = hand[:at] + hand[at + 1 :]
        trick = (*self.trick, card)
        events: list[Event] = [CardPlayed(player, card, follows, led)]
        ch: dict[str, Any] = {"hands": tuple(hands), "trick": trick}
        if len(trick) < len(self.trick_players):
            return ch, events
        # The trick is complete: the k-th card takes prize k.
        order, reasons = _rank_trick(trick, self.trick_players, self.prizes, _prize_order(trick))
        taken = min(len(order), len(self.prizes))
        returned = self.prizes[taken:]
        planets = self.planets
        for place in range(taken):
            winner = self.trick_players[order[place]]
            prize = self.prizes[place]
            hands[winner] = tuple(sorted((*hands[winner], prize)))
        events.append(
            PrizesAwarded(
                self.trick_players[0],
                trick,
                self.trick_players,
                order,
                self.prizes,
                reasons,
                returned,
            )
        )
        # The 5♣ switch happens the moment it arrives (see the module docstring).
        for place in range(taken):
            winner = self.trick_players[order[place]]
            if self.prizes[place] == FIVE_OF_CLUBS and planets[winner]:
                old = planets[winner]
                hands[winner] = tuple(
                    sorted((*(c for c in hands[winner] if c != FIVE_OF_CLUBS), *old))
                )
                planets = (*planets[:winner], (FIVE_OF_CLUBS,), *planets[winner + 1 :])
                events.append(PlanetSwitched(winner, old))
        n = self.game.num_players
        first = self.trick_players[order[0]]
        ch.update(
            hands=tuple(hands),
            planets=planets,
            trick=(),
            trick_players=(),
            prizes=(),
            face_up=None,
            discard=self.discard + trick,
            deck=self.deck + returned,
            leader=first,
            tricks_played=self.tricks_played + 1,
            phase=PUT_DOWN,
            queue=tuple((first + i) % n for i in range(n)),
        )
        return ch, events

    def _put_down(self, action: Any) -> _Change:
        player = self.queue[0]
        hand = self.hands[player]
        ch: dict[str, Any] = {}
        events: list[Event] = []
        if isinstance(action, Done):
            if not hand:
                return self._win(ch, events, player)
            if len(self.queue) > 1:
                return {"queue": self.queue[1:]}, events
            return self._begin_trick(ch, events)
        if isinstance(action, DeclarePlanet):
            cards = action.cards
            ch["planets"] = _replace_at(self.planets, player, cards)
            events.append(PlanetDeclared(player, cards, planet_reason(cards)))
        elif isinstance(action, MakeMoon):
            cards = action.cards
            ch["moons"] = _replace_at(self.moons, player, (*self.moons[player], cards))
            events.append(MoonMade(player, cards, moon_reason(cards)))
        elif isinstance(action, AddToMoon):
            cards = action.cards
            groups = list(self.moons[player])
            result = tuple(sorted((*groups[action.moon], *cards), key=_rank_key))
            groups[action.moon] = result
            ch["moons"] = _replace_at(self.moons, player, tuple(groups))
            events.append(MoonExtended(player, action.moon, cards, result))
        else:
            moon_cards = {c for g in self.moons[player] for c in g}
            cards = tuple(c for g in action.groups for c in g if c not in moon_cards)
            ch["moons"] = _replace_at(self.moons, player, action.groups)
            events.append(MoonsRegrouped(player, action.groups, cards))
        gone = set(cards)
        left = tuple(c for c in hand if c not in gone)
        ch["hands"] = _replace_at(self.hands, player, left)
        if not left:
            return self._win(ch, events, player)
        return ch, events

    def _win(self, ch: dict[str, Any], events: list[Event], player: int) -> _Change:
        events.append(
            GameWon(player, (player,), later("their hand is empty after putting cards down"))
        )
        ch.update(phase=OVER, queue=(), won_by=(player,))
        return ch, events

    def _begin_trick(self, ch: dict[str, Any], events: list[Event]) -> _Change:
        """Deal the prizes and find who plays: the start of every trick."""
        n = self.game.num_players
        hands = ch.get("hands", self.hands)
        if self.tricks_played >= self.game.trick_limit:
            return self._fewest_cards_win(ch, events, self.game.trick_limit)
        players = []
        for i in range(n):
            seat = (self.leader + i) % n
            if any(_playable(c) for c in hands[seat]):
                players.append(seat)
            else:
                events.append(SatOut(seat, later("no card in hand can be played to a trick")))
        if not players:
            return self._fewest_cards_win(ch, events, None)
        deck, discard = self.deck, self.discard
        prizes: list[Card] = []
        rng = None
        while len(prizes) < n:
            if not deck:
                if not discard:
                    break
                rng = rng or self.rng()
                pile = list(discard)
                rng.shuffle(pile)
                deck, discard = tuple(pile), ()
                events.append(DeckReshuffled(None, len(pile)))
            take = min(n - len(prizes), len(deck))
            prizes.extend(deck[:take])
            deck = deck[take:]
        events.append(PrizesDealt(None, len(prizes)))
        ch.update(
            deck=deck,
            discard=discard,
            prizes=tuple(prizes),
            face_up=None,
            trick=(),
            trick_players=tuple(players),
            queue=(),
            phase=TURN_PRIZE if prizes else PLAY,
        )
        return ch, events

    def _fewest_cards_win(self, ch: dict[str, Any], events: list[Event],
                          limit: int | None) -> _Change:
        """The fewest cards in hand win: the trick ``limit`` is reached, or (None) nobody
        can play to a trick."""
        hands = ch.get("hands", self.hands)
        fewest = min(len(h) for h in hands)
        winners = tuple(p for p, h in enumerate(hands) if len(h) == fewest)
        why: Said = (
            later("the {limit}-trick limit is reached: the fewest cards in hand ({n}) win",
                  limit=limit, n=fewest) if limit is not None else
            later("nobody can play to a trick: the fewest cards in hand ({n}) win", n=fewest))
        events.append(GameWon(winners[0], winners, why))
        ch.update(phase=OVER, queue=(), won_by=winners)
        return ch, events


def _replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])

