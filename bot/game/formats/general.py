"""«Генерал» (§8): teams of two, two at the table and the others queued; a fish is played
again, out on 0-0 or the top double makes a General; the match runs on a clock and is
decided by Generals, then rounds won."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from bot.game.events import EndReason, RoundEnd
from bot.game.formats.base import (
    Club,
    ComputerSettings,
    Fixed,
    Length,
    Options,
    Presets,
    Progress,
    RoundFacts,
    RoundOutcome,
    Rules,
    Sheet,
    Standing,
    leaver_key,
    option,
    own,
)
from bot.game.kinds import DrawMode, FirstLead, NextLead, RuleError, Spinner
from bot.game.scoring import RoundScores, Tally, fresh_tally, nothing
from bot.game.shuffle import shuffled

GENERAL_PLAYERS = (4, 6, 8)
"""Two, three or four teams of two, two of them at the table (§8)."""


@dataclass(frozen=True, slots=True)
class GeneralOptions(Options):
    minutes: int = option(30, after="turn_timeout", within=(1, 120))  # the match's length


class General(Club):
    id = "general"
    options = GeneralOptions
    computers = ComputerSettings(valuation="general", heuristic="general")
    presets: ClassVar[Presets] = {
        "general": {
            "teams": True,
            "next_lead": NextLead.FIRST_RULE,
            "draw": DrawMode.NONE,
            "redeal_doubles": 0,
            "redeal_suit": 0,
            "lone_zero": 0,
        }
    }
    sheet = Sheet.GENERALS
    length = Length.MINUTES
    lengths = (10, 30, 60)
    fixed: ClassVar[Fixed] = {
        "draw": (DrawMode.NONE,),  # all 28 tiles are dealt to the four at the table
        "keep": (0,),
        "auto_draw": (True,),
        "first_lead": (FirstLead.ONE_ONE,),  # 1-1 leads every round
        "next_lead": (NextLead.FIRST_RULE,),
        "spinner": (Spinner.NONE,),  # two ends only
    }
    higher_wins = True
    timed = True

    def most_players(self, rules: Rules) -> int:
        return max(GENERAL_PLAYERS)

    def match_minutes(self, rules: Rules) -> int:
        return own(rules, GeneralOptions).minutes

    def validate(self, rules: Rules) -> None:
        if not rules.teams or rules.team_size != 2:
            raise RuleError("«Генерал» is played by teams of two", "teams", str(rules.teams), "yes")
        if rules.players not in GENERAL_PLAYERS:
            raise RuleError(
                f"players={rules.players}: «Генерал» takes 4, 6 or 8",
                "players",
                str(rules.players),
                ", ".join(map(str, GENERAL_PLAYERS)),
            )

    def fresh_tally(self, rules: Rules) -> Tally:
        """Teams 0 and 1 sit down first, the others wait."""
        blank = fresh_tally(rules.sides)
        return blank._replace(wins=(0,) * rules.sides, queue=tuple(range(2, rules.sides)))

    def next_resting(self, state: Progress) -> tuple[int, ...]:
        """The waiting teams' seats."""
        queue = state.tally.queue
        return tuple(s for s in range(state.rules.players) if state.rules.side_of(s) in queue)

    def settle_round(self, facts: RoundFacts) -> RoundOutcome:
        """A fish counts nothing and the same teams play again; otherwise the winning side
        has won a round (and a General, out on 0-0 or the top double). The loser gives its
        place to the first waiting side — or, after a General, the winner does."""
        state = facts.state
        rules, tally = state.rules, state.tally
        if facts.reason is not RoundEnd.OUT:
            return RoundOutcome(nothing(tally))
        winner = rules.side_of(facts.seat)
        top = rules.tiles.tile(rules.tiles.max_pip, rules.tiles.max_pip)
        general = bool(facts.placed & 1 or facts.placed >> top & 1)
        points = tuple(int(general and s == winner) for s in range(rules.sides))
        wins = tuple(w + (s == winner) for s, w in enumerate(tally.wins))
        queue = tally.queue
        if queue:
            at_table = [s for s in range(rules.sides) if s not in queue]
            leaving = winner if general else next(s for s in at_table if s != winner)
            queue = (*queue[1:], leaving)
        scores = tuple(map(sum, zip(tally.scores, points, strict=True)))
        new = tally._replace(scores=scores, wins=wins, queue=queue)
        return RoundOutcome(RoundScores(points, new, False, None, False))

    def ending(
        self, rules: Rules, tally: Tally, bald: int | None
    ) -> tuple[EndReason | None, tuple[int, ...]]:
        """Only the clock ends the match (`engine.time_up`)."""
        return None, ()

    def standings(
        self,
        rules: Rules,
        tally: Tally,
        goats: Sequence[int],
        leaver_sides: Sequence[int],
        lots: int,
    ) -> list[Standing]:
        """The most Generals first, then the most rounds won, then a lot drawn from the
        game's lots; sides with a leaver last. No goats, no rating points."""
        lot = shuffled(range(rules.sides), f"{lots}:lot")

        def key(s: int) -> tuple[int, int, int, int]:
            return (leaver_key(leaver_sides, s), -tally.scores[s], -tally.wins[s], lot.index(s))

        order = sorted(range(len(tally.scores)), key=key)
        return [(side, place, False, 0) for place, side in enumerate(order, start=1)]


GENERAL = General()
