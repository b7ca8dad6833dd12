"""Badges (achievements) in words and pictures: the line a game's result adds for what
its people earned, and /stats' picture and caption of what a person holds."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.achievements import Achievement
from bot.core.achievements.kinds import Earned, Held
from bot.ui.i18n import Texts
from bot.ui.texts import CAPTION, fit
from render.badges import BadgeBoard, BadgeScene, Rarity

MARKS: dict[Achievement, str] = {
    Achievement.FIRST_WIN: "1",
    Achievement.FIRST_GOAT: "♈",
    Achievement.FISHERMAN: "🐟",
    Achievement.EGGS: "🥚",
    Achievement.GENERAL: "★",
    Achievement.BALD_GOAT_MADE: "♛",
    Achievement.BALD_GOAT: "☹",
    Achievement.THREE_ROUNDS: "3",
    Achievement.NO_BAZAAR: "∅",
    Achievement.DOUBLE_PAIR: "⚏",
    Achievement.MUGGINS_25: "25",
    Achievement.EXACT_61: "61",
    Achievement.CLEAN_WIN: "0",
    Achievement.COMEBACK: "↑",
    Achievement.THREE_HARD: "♜",
    Achievement.FULL_TABLE: "4",
    Achievement.WIN_STREAK: "»",
    Achievement.TEN_WINS: "10",
    Achievement.FIFTY_GAMES: "50",
    Achievement.WHOLE_FAMILY: "∞",
}
"""What each medal shows."""
RARE, UNCOMMON = 0.1, 0.35  # the share of players holding one, at most


def name(t: Texts, achievement: Achievement) -> str:
    return t(f"badge-{achievement.value}")


def rule(t: Texts, achievement: Achievement) -> str:
    return t(f"badge-{achievement.value}-rule")


def earned_line(t: Texts, earned: Sequence[Earned]) -> str:
    """One line: who earned what with the game ("" if nobody earned anything)."""
    people = [
        t(
            "badges-earned-person",
            name=e.name,
            badges=", ".join(name(t, a) for a in e.achievements),
        )
        for e in earned
    ]
    return t("badges-earned", list="; ".join(people)) if people else ""


def with_earned(t: Texts, said: str, earned: Sequence[Earned]) -> str:
    """The game's result with its one line of badges, the whole within a caption's limit
    (the line cut short if it must be; left out if no room is left at all)."""
    line = earned_line(t, earned)
    room = CAPTION - len(said) - 1
    if not line or room < len(t("badges-earned", list="")) + 2:
        return said
    return f"{said}\n{fit(line, room)}"


def with_held(t: Texts, said: str, who: str, held: Sequence[Held]) -> str:
    """/stats with its badges: the caption of their picture, the badges' line kept whole
    (up to a third of the caption) and the stats cut short if they must be."""
    line = fit(caption(t, who, held), CAPTION // 3)
    return f"{fit(said, CAPTION - len(line) - 1)}\n{line}"


def _times(t: Texts, held: Held) -> str:
    return t("badges-times", times=held.times) if held.times > 1 else ""


def caption(t: Texts, who: str, held: Sequence[Held]) -> str:
    """/stats' badges picture's caption: every badge by name, the rarest first."""
    names = ", ".join(f"{name(t, h.achievement)} {_times(t, h)}".strip() for h in held)
    return fit(t("badges-caption", name=who, list=names), CAPTION)


def rarity(held: Held) -> Rarity:
    share = held.holders / held.seen if held.seen else 1.0
    if share <= RARE:
        return Rarity.RARE
    return Rarity.UNCOMMON if share <= UNCOMMON else Rarity.COMMON


def board(t: Texts, who: str, held: Sequence[Held]) -> BadgeBoard:
    """The picture of a person's badges, the rarest first."""
    return BadgeBoard(
        title=t("badges-picture-title", name=who),
        badges=tuple(
            BadgeScene(
                mark=MARKS[h.achievement],
                name=name(t, h.achievement),
                times=_times(t, h),
                rule=rule(t, h.achievement),
                holders=t("badges-holders", percent=_percent(h)),
                rarity=rarity(h),
            )
            for h in held
        ),
    )


def _percent(held: Held) -> int:
    return max(1, round(100 * held.holders / held.seen)) if held.seen else 100
