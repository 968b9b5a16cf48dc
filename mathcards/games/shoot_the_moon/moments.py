"""Shoot the Moon's moments: a round scored (odd or even tricks, the chips), the game
won."""

from __future__ import annotations

from collections.abc import Sequence

from mathcards.games.base import State, seat_name
from mathcards.i18n import _, ngettext
from mathcards.moments import Moment, _headline, _last, _scores_line


def moment(before: State, after: State, names: Sequence[str],
           here: Sequence[int]) -> Moment | None:
    from mathcards.games.shoot_the_moon.events import GameWon, RoundScored

    events = after.new_events
    scored = _last(events, RoundScored)
    over = _last(events, GameWon)
    if scored is None and over is None:
        return None
    lines = []
    gained: tuple[int, ...] = ()
    if scored is not None:
        awards = scored.awards
        for i, (tricks, award) in enumerate(zip(scored.side_tricks, awards, strict=True)):
            # the arithmetic: odd or even, the award, the chips before and after it
            kind = _("all five") if tricks == 5 else _("odd") if tricks % 2 else _("even")
            now = scored.chips[i]
            gain = (_("{gain}: {before} + {award} = {total}").format(
                        gain=ngettext("+{n} chip", "+{n} chips", award).format(n=award),
                        before=now - award, award=award,
                        total=ngettext("{n} chip", "{n} chips", now).format(n=now))
                    if award else
                    ngettext("no chip: still {n} chip", "no chip: still {n} chips",
                             now).format(n=now))
            lines.append(ngettext("{who}: {n} trick ({kind}) → {gain}",
                                  "{who}: {n} tricks ({kind}) → {gain}", tricks).format(
                who=seat_name(names, i), n=tricks, kind=kind, gain=gain))
        best = max(awards, default=0)
        gained = tuple(i for i, a in enumerate(awards) if a == best) if best > 0 else ()
    lines.append(_scores_line(after.scores, names, _("Chips")))
    if over is not None or after.is_over:
        headline, win = _headline(after.winners, names, here, "game")
        return Moment("game", _("Game over"), headline, tuple(lines), win, tuple(after.winners))
    round_no = scored.round_number if scored is not None else 0
    if gained:
        headline, win = _headline(gained, names, here, "round")
    else:
        headline, win = _("Nobody won chips this round"), False
    return Moment("round", _("Round {n} scored").format(n=round_no), headline, tuple(lines),
                  win, gained)
