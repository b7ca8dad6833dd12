"""Information sets: what one seat may know, and nothing else (RULES §1.8).

Computer players and private messages are built only from a `SeatView`, so they cannot
see another hand or the bazaar order by construction.
"""

from __future__ import annotations

from typing import NamedTuple

from bot.game.engine import moves_for
from bot.game.events import PublicEvent, plays_of
from bot.game.moves import Move
from bot.game.rules import RuleSet
from bot.game.scoring import Tally
from bot.game.state import GameState, Phase
from bot.game.table import LINE, Layout, Spread, build_table, fitting
from bot.game.tiles import Tile


class SeatView(NamedTuple):
    seat: int
    rules: RuleSet
    round_no: int
    phase: Phase
    hand: int  # bitmask of the seat's own tiles
    ends: tuple[int, ...]
    on_table: int
    hand_sizes: tuple[int, ...]
    bazaar_size: int
    to_move: int
    lead_tile: Tile | None
    drawn: int  # tiles the seat to move has drawn this turn
    history: tuple[PublicEvent, ...]  # plays, draw counts, knocks and passes of this round
    tally: Tally
    spread: Spread = LINE  # the spinner and how each arm ends

    @property
    def table(self) -> Layout:
        """The table as it lies, rebuilt from this round's plays."""
        return build_table(self.rules.tiles, self.rules.spinner, plays_of(self.history))

    def legal_moves(self) -> list[Move]:
        """This seat's legal moves (none when it is not its turn)."""
        if self.phase is not Phase.PLAYING or self.to_move != self.seat:
            return []
        fits = fitting(self.rules.tiles, self.ends)
        return moves_for(
            self.rules, self.hand, self.ends, fits, self.lead_tile, self.bazaar_size, self.drawn
        )


def seat_view(state: GameState, seat: int) -> SeatView:
    """What `seat` may know about `state`."""
    return SeatView(
        seat=seat,
        rules=state.rules,
        round_no=state.round_no,
        phase=state.phase,
        hand=state.hands[seat],
        ends=state.ends,
        on_table=state.on_table,
        hand_sizes=state.hand_sizes(),
        bazaar_size=len(state.bazaar),
        to_move=state.to_move,
        lead_tile=state.lead_tile,
        drawn=state.drawn,
        history=state.history,
        tally=state.tally,
        spread=state.spread,
    )
