"""Moons and Planets: win prizes in tricks and put your cards down as planets and moons.

The rules are docs/rules/moons_and_planets.md (the rule text and its rulings).
Where both are silent this engine decides as a careful teacher would; each such
decision is listed here and tested in ``tests/games/test_moons_and_planets.py``.

Play, in the order the engine runs it:

1. 52 standard cards, no Jokers, 2-5 players, 9 cards each. The dealer is the
   last seat, so seat 0 (the dealer's left) leads the first trick.
2. Putting down ("After players have put down their initial sets"): before the
   first trick, starting with seat 0, each player in turn may put down any
   number of planets and moons and then says ``Done``. After every trick the
   same happens starting with the trick's winner (the card that takes the
   first prize) round the table.
3. A planet (one per player) is 2+ cards of one suit, no Aces, adding to
   15-18 with J Q K as 10, or the 5♣ alone. Moons need a planet first: a run
   of 3+ consecutive ranks (2..K, no wrap) of one colour, 2-4 cards of one
   rank, or a single Ace. Moons can be added to (``AddToMoon``) and regrouped
   (``Regroup``: all your moons are replaced by a new valid grouping of the
   same cards plus at least one card from your hand). Moon cards never go back
   to hand.
4. A trick: as many prizes as players are dealt face down from the deck; the
   leader turns one face up (``TurnPrize``) and leads. Follow suit if you can,
   else discard. Followers rank above discards; followers by rank K..2;
   discards by rank K..2, equal ranks by suit ♦ > ♣ > ♠ > ♥. The k-th highest
   card takes prize k. Trick cards go to the discard pile; prizes nobody
   takes go to the bottom of the deck.
5. The first player whose hand is empty after putting cards down wins.

Decisions where the rules are silent (each is tested):

- **The 5♣ switch** happens the moment the 5♣ arrives as a prize: it becomes
  that player's planet at once and the old planet's cards return to hand
  (event ``PlanetSwitched``). A player who holds the 5♣ and has no planet may
  declare only the 5♣ as a planet (any other planet would have to be
  switched straight back), so "holding the 5♣ with another planet down"
  never lasts.
- **Sitting out**: a player whose hand holds no card that may be played to a
  trick (only Aces and the 5♣, or nothing) sits the trick out. If the leader
  sits out, the next player round the table who can play leads and turns the
  prize.
- **Reshuffle**: when a prize is needed and the deck is empty, the discard
  pile is shuffled to make the new deck. If deck and discard pile are both
  empty, fewer prizes are dealt (possibly none: then no prize is turned).
- **Regrouping** must put down at least one card from the hand: moving moon
  cards around alone changes nothing, and this keeps every putting-down turn
  finite. Each regrouped moon holds a card of the old moons: a moon of hand
  cards alone is made with ``MakeMoon`` (before or after), so every layout
  stays reachable while the list of regroupings stays short.
- **An empty hand wins** at once when a putting-down move empties it; a player
  who reaches their putting-down turn with an empty hand (they played their
  last card and took no prize) wins when they say ``Done``.
- **Every game ends**: if nobody can play to a trick, or after ``trick_limit``
  tricks (a lesson-length cap, default 200), the game ends and the player(s)
  with the fewest cards in hand win (ties share the win).

Scores: 1 for each winner, 0 for everyone else (all 0 while the game runs).

The event log is the whole truth (prizes that were face down are named in
``PrizesAwarded``); ``observation(player)`` is what one player may see.
"""

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
)
from mathcards.games.moons_and_planets.bot import strong_policy
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
from mathcards.games.moons_and_planets.notation import parse_move, read_move
from mathcards.games.moons_and_planets.position import play_trick, position
from mathcards.games.moons_and_planets.rules import (
    DISCARD_SUIT_ORDER,
    FIVE_OF_CLUBS,
    HAND_SIZE,
    OVER,
    PLANET_HIGH,
    PLANET_LOW,
    PLAY,
    PUT_DOWN,
    SUITS_HIGH_TO_LOW,
    TURN_PRIZE,
    Phase,
    PrizeRanking,
    _playable,
    is_moon,
    is_planet,
    moon_kind,
    moon_problem,
    moon_reason,
    planet_points,
    planet_problem,
    planet_reason,
    prize_order,
    rank_trick,
)
from mathcards.games.moons_and_planets.search import (
    PutDownOptions,
    find_moon_grouping,
    moon_options,
    planet_options,
    regroup_options,
)
from mathcards.games.moons_and_planets.state import (
    MoonsAndPlanets,
    MoonsAndPlanetsState,
    Observation,
)
from mathcards.games.registry import GameSpec, LandingCard, register_game
from mathcards.i18n import N_

__all__ = [
    "DISCARD_SUIT_ORDER",
    "DONE",
    "FIVE_OF_CLUBS",
    "HAND_SIZE",
    "OVER",
    "PLANET_HIGH",
    "PLANET_LOW",
    "PLAY",
    "PUT_DOWN",
    "PUT_DOWN_ACTIONS",
    "SUITS_HIGH_TO_LOW",
    "TURN_PRIZE",
    "AddToMoon",
    "CardPlayed",
    "CardsDealt",
    "DeckReshuffled",
    "DeclarePlanet",
    "Done",
    "GameWon",
    "MakeMoon",
    "MoonExtended",
    "MoonMade",
    "MoonsAndPlanets",
    "MoonsAndPlanetsState",
    "MoonsRegrouped",
    "Observation",
    "Phase",
    "PlanetDeclared",
    "PlanetSwitched",
    "PlayCard",
    "PrizeRanking",
    "PrizeTurned",
    "PrizesAwarded",
    "PrizesDealt",
    "PutDownOptions",
    "Regroup",
    "SatOut",
    "TurnPrize",
    "_playable",
    "find_moon_grouping",
    "is_moon",
    "is_planet",
    "moon_kind",
    "moon_options",
    "moon_problem",
    "moon_reason",
    "parse_move",
    "planet_options",
    "planet_points",
    "planet_problem",
    "planet_reason",
    "play_trick",
    "position",
    "prize_order",
    "rank_trick",
    "read_move",
    "regroup_options",
    "strong_policy",
]


# --- the one registration: everything the app asks of this game by its name ------
register_game(GameSpec(
    name="moons_and_planets",
    engine=MoonsAndPlanets,
    code="PLANETS",
    strong_policy=strong_policy,
    parse_move=parse_move,
    view="mathcards.widgets.tricks:MoonsAndPlanetsView",
    card=LandingCard(
        practises=N_("sums to 15–18 and runs"),
        blurb=N_("Put down a planet (cards of one suit adding to 15–18), then moons: runs "
               "and sets. Win prizes in tricks; first to empty their hand wins."),
        picture="mathcards.widgets.lesson:planets_picture",
        lesson="moons_and_planets.ipynb",
        play="play_moons_and_planets.ipynb",
    ),
))
