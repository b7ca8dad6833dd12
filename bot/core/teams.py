"""Teams picked in the lobby: who sits where so the teams alternate round the table.

A player may pick a team (1, 2, …) or leave it to the order of joining. At the start the
picks are kept, everyone else fills the team with the most free places (the lowest number
on a tie) — so when nobody picks, joining order alone makes seats 1, 4 / 2, 5 / 3, 6 — and
team t's k-th member takes seat t + k·teams (RULES §1.2, §9.1).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.errors import GameError
from bot.game.rules import MAX_TEAMS, RuleSet


def team_slots(rules: RuleSet) -> int:
    """The teams a lobby offers: as many as a full table of these rules can hold."""
    return min(MAX_TEAMS, rules.most_players // rules.team_size)


def seating(picks: Sequence[int | None], teams: int, size: int) -> list[int]:
    """The players (indices into `picks`, in joining order) in seat order; `GameError` when
    a pick names no team of this table or a team is over-full."""
    members: list[list[int]] = [[] for _ in range(teams)]
    for player, team in enumerate(picks):
        if team is None:
            continue
        if not 0 <= team < teams:
            raise GameError("team-missing", team=team + 1, teams=teams)
        members[team].append(player)
    for team, chosen in enumerate(members):
        if len(chosen) > size:
            raise GameError("team-full", team=team + 1, size=size)
    for player, team in enumerate(picks):
        if team is None:
            free = max(range(teams), key=lambda t: (size - len(members[t]), -t))
            members[free].append(player)
    return [members[seat % teams][seat // teams] for seat in range(teams * size)]
