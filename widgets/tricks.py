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
from typing import Any

from mathcards.cards import Card
from mathcards.games.base import State, action_name
from mathcards.table import Choice, GameView, esc
from mathcards.widgets.cards import card_back_html, card_face_html

# the save name of each trick game's card play (a card from the hand into the trick)
CARD_PLAY = {"shoot_the_moon": "play", "moons_and_planets": "play-card"}


def _cards(cards: Sequence[Card], label: str) -> str:
    faces = "".join(card_face_html(c, small=True) for c in cards)
    return (f'<div class="mc-zone"><div class="mc-zone-title">{esc(label)}</div>'
            f'<div class="mc-row">{faces or "<em>none</em>"}</div></div>')


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
            return (Choice(f"card:{card}", card.symbol, card=card, tooltip=f"play {card.name}"),)
        return (Choice(f"move:{action_name(action)}:{action}", str(action)),)

    def parse_move(self, state: State, text: str) -> Any:
        """A typed move, read by the game's own move parser."""
        import importlib

        engine = importlib.import_module(f"mathcards.games.{self.game_name}")
        return engine.parse_move(state, text)

    def card_refusal(self, state: State, card: Card) -> str:
        action = self.card_play(state, card)
        if state.is_legal(action):
            return "play it"
        if not self.card_phase(state):
            return "first finish the moves below (or choose Done)"
        return state.why_illegal(action)

    def board_html(self, state: State, obs: Any, seat_names: Sequence[str]) -> str:
        parts = [_cards(tuple(getattr(obs, "trick", ())), "On the table")]
        prizes = getattr(obs, "prizes", None)
        if prizes is not None:  # Moons and Planets: face-up prizes, face-down ones as backs
            faces = "".join(card_face_html(c, small=True) if c is not None
                            else card_back_html(small=True) for c in prizes)
            parts.append(f'<div class="mc-zone"><div class="mc-zone-title">Prizes</div>'
                         f'<div class="mc-row">{faces or "<em>none</em>"}</div></div>')
            for seat, (planet, moons) in enumerate(zip(obs.planets, obs.moons, strict=True)):
                if planet or moons:
                    laid = list(planet) + [c for moon in moons for c in moon]
                    parts.append(_cards(laid, f"{seat_name(seat_names, seat)}: planet and moons"))
        return "".join(parts)

    def status(self, state: State, seat_names: Sequence[str]) -> str:
        scores = ", ".join(f"{seat_name(seat_names, s)}: {v}" for s, v in enumerate(state.scores))
        return f"Scores: {scores}"


class ShootTheMoonView(TrickView):
    """The Shoot the Moon table (free play: against bots or classmates in a room)."""

    def __init__(self) -> None:
        super().__init__("shoot_the_moon")


class MoonsAndPlanetsView(TrickView):
    """The Moons and Planets table (free play: against bots or classmates in a room)."""

    def __init__(self) -> None:
        super().__init__("moons_and_planets")


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "dummy"
