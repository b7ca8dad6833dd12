"""Bykovo's sheet (§4.2): the round's places and the totals up to the limit, who sits a
round out, and the tournament's standings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from bot.game.engine import next_resting
from bot.game.events import GameEnded, RoundEnded, SeatResult
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState, Phase
from bot.ui.i18n import Texts
from bot.ui.sheet_kinds.points import PointsSheet, scored_place
from render.scene import ScoreRow, SheetKind


class PlacesSheet(PointsSheet):
    kind: ClassVar[SheetKind] = SheetKind.PLACES
    fish: ClassVar[str] = "round-fish-places"  # the last tile takes the fish (§4.1)
    hand_out: ClassVar[str] = "hand-out-bykovo"  # the tournament's limit put them out

    def resting(self, t: Texts, state: GameState, names: Sequence[str]) -> list[str]:
        """Who sits this round out (§4.2)."""
        return [t("event-resting", names=", ".join(names[s] for s in state.resting))]

    def sat_out(self, rules: RuleSet, result: SeatResult, ended: RoundEnded | None) -> bool:
        """Out of the tournament or sitting the round out (known given the round)."""
        return ended is not None and result.seat not in ended.order

    def round_sheet(
        self,
        t: Texts,
        ended: RoundEnded,
        rules: RuleSet,
        names: Sequence[str],
        shown: Sequence[SeatResult],
        closed: GameState | None,
    ) -> list[str]:
        """The round's places (🎲 where the lot decided, §4.1), then the sheet."""
        places = ", ".join(
            f"{place}. {names[seat]}{' 🎲' if seat in ended.lots else ''}"
            for place, seat in enumerate(ended.order, start=1)
        )
        lots = [t("round-lots")] if ended.lots else []
        return [
            t("round-places", places=places),
            *lots,
            *super().round_sheet(t, ended, rules, names, shown, closed),
        ]

    def end(
        self, t: Texts, ended: GameEnded, names: Sequence[str], rules: RuleSet, tally: Tally
    ) -> list[str]:
        """The tournament's end: the winner, then every place with its score."""
        first = ended.places[0]
        lines = [t("game-over-places", name=names[first.seat], score=first.score)]
        if ended.leaver is not None:
            lines.append(t("game-over-left-race", name=names[ended.leaver]))
        return lines + [scored_place(t, p, names, tally) for p in ended.places]

    def rows(self, t: Texts, state: GameState, names: Sequence[str]) -> tuple[ScoreRow, ...]:
        """The tournament after a round: every participant, best standing first — those
        still in by total (lower is better), then those out, the latest out first; the
        game's places once it is over — with this round's place («—» for who sat it out) and
        whether they play the next round (nothing once the tournament is over)."""
        ended = state.last_round
        assert ended is not None
        tally = state.tally
        over = state.phase is Phase.GAME_OVER
        resting = () if over else next_resting(state)
        places = {seat: i + 1 for i, seat in enumerate(ended.order)}

        def standing(seat: int) -> tuple[int, int, int]:
            wave = tally.out[seat] if tally.out else 0
            return (-wave if wave else -(10**9), tally.scores[seat], seat)

        if state.outcome is not None:  # the official places, ties settled by dynamics
            order = [place.seat for place in state.outcome.places]
        else:
            order = sorted(range(state.rules.players), key=standing)
        rows = []
        for seat in order:
            result = ended.results[seat]
            out = state.is_out(seat)
            rows.append(
                ScoreRow(
                    name=names[seat],
                    previous=result.score_before,
                    round_points=result.round_points,
                    total=result.score_after,
                    remembered=0,
                    opened=False,
                    goat=False,
                    out=out,
                    place=places.get(seat, 0),
                    lot=seat in ended.lots,
                    plays_next=None if over or out else seat not in resting,
                )
            )
        return tuple(rows)
