"""The words of a game's record (docs/RECORD.md): /history's list and score sheet, a
shared deal's tables (/deal), the captions of replays and exports."""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.review import Review, Slip
from bot.core.rows import DealAtTable
from bot.game.moves import Draw, Move, Play, PlayDoubles
from bot.game.notation import pips
from bot.game.record import Record
from bot.game.tiles import TileSet
from bot.ui.games import preset_name
from bot.ui.i18n import Texts

ROUND_REASONS = {"out": "🏁", "fish": "🐟", "target": "🎯", "sortir": "🚽"}


def day(moment: str | None) -> str:
    """`2026-12-04T18:03:00Z` as «04.12 18:03» (UTC)."""
    if not moment:
        return "—"
    return f"{moment[8:10]}.{moment[5:7]} {moment[11:16]}"


def _names(record: Record, seats: Sequence[int]) -> str:
    return ", ".join(record["seats"][s]["name"] for s in seats)


def result(t: Texts, record: Record) -> str:
    """Who won, and the goats: «🏆 Аня, Боря · 🐐 Вася»."""
    end = record["end"]
    if end is None:
        return t("history-unfinished")
    places = end["places"]
    first = [p["seat"] for p in places if p["place"] == 1]
    goats = [p["seat"] for p in places if p["goat"]]
    parts = [t("history-winner", names=_names(record, first))]
    if goats:
        parts.append(t("history-goat", names=_names(record, goats)))
    return " · ".join(parts)


def history(t: Texts, chat: str, records: Sequence[Record]) -> str:
    """/history: the chat's last games, each by its own number (its button's, its sheet's,
    its replays' and review's)."""
    lines = [t("history-title", chat=chat)]
    for record in records:
        lines.append(
            t(
                "history-line",
                number=record["game"],
                date=day(record["ended_at"]),
                game=preset_name(t, record["preset"]),
                result=result(t, record),
            )
        )
    return "\n".join(lines)


def round_scores(round_: Record, names: Sequence[str] | None) -> str:
    """A round's sides' scores after it: «Аня 12 · Боря 30», or by seat number (`names`
    None)."""
    result_ = round_["result"]
    if result_ is None:
        return "—"
    shown: dict[int, str] = {}
    for line in result_["seats"]:
        side = line["side"]
        who = names[line["seat"]] if names is not None else f"#{line['seat'] + 1}"
        shown[side] = f"{shown[side]}+{who}" if side in shown else who
    scores = {line["side"]: line["score_after"] for line in result_["seats"]}
    return " · ".join(f"{shown[side]} {scores[side]}" for side in sorted(shown))


def round_line(t: Texts, names: Sequence[str], round_: Record) -> str:
    """«Р3 🐟 · K7QF2M: Аня 12 · Боря 30»."""
    reason = (round_["result"] or {}).get("reason", "")
    return t(
        "history-round",
        round=round_["round"],
        how=ROUND_REASONS.get(reason, "⏹"),
        code=round_["deal"]["code"] or "—",
        scores=round_scores(round_, names),
    )


def sheet(t: Texts, record: Record) -> str:
    """A game's score sheet from its record: each round, then the places."""
    lines = [
        t(
            "history-game-title",
            game=record["game"],
            name=preset_name(t, record["preset"]),
            date=day(record["ended_at"]),
        ),
        t("history-seats", names=", ".join(s["name"] for s in record["seats"])),
        "",
        *(round_line(t, [seat["name"] for seat in record["seats"]], r) for r in record["rounds"]),
        "",
        result(t, record),
        t("history-actions"),
    ]
    return "\n".join(lines)


def tables(t: Texts, code: str, name: str, found: Sequence[DealAtTable], here: int) -> str:
    """/deal CODE: every table that played the deal — who went out or made the fish, and
    what each side's score gained in the round — names only where allowed (and always the
    asking chat's own)."""
    lines = [t("deal-title", code=code, name=name, tables=len(found))]
    for number, table in enumerate(found, start=1):
        own = table.dealing.chat_id == here
        names = table.names if own or table.shown else None
        lines.append(
            t(
                "deal-table",
                number=number,
                chat=t("deal-this-chat") if own else t("deal-other-chat"),
                how=round_how(t, table.round, names),
                result=round_gains(table.round, names),
            )
        )
    return "\n".join(lines)


def _seat_name(names: Sequence[str] | None, seat: int) -> str:
    return names[seat] if names is not None else f"#{seat + 1}"


def round_how(t: Texts, round_: Record, names: Sequence[str] | None) -> str:
    """How a round ended, and by whom: «🐟 рыба, рыбак — Боря», «🏁 Аня выходит», «🎯»."""
    result_ = round_["result"] or {}
    reason, seat = result_.get("reason", ""), result_.get("seat")
    if reason in ("fish", "out") and seat is not None:
        return t(f"deal-how-{reason}", name=_seat_name(names, seat))
    return ROUND_REASONS.get(reason, "⏹")


def round_gains(round_: Record, names: Sequence[str] | None) -> str:
    """What each side's score gained in a round: «Аня +0 · Боря +14»."""
    result_ = round_["result"]
    if result_ is None:
        return "—"
    shown: dict[int, str] = {}
    gained: dict[int, int] = {}
    for line in result_["seats"]:
        side, who = line["side"], _seat_name(names, line["seat"])
        shown[side] = f"{shown[side]}+{who}" if side in shown else who
        gained[side] = line["score_after"] - line["score_before"]
    return " · ".join(f"{shown[side]} {gained[side]:+d}" for side in sorted(shown))


ARROWS = ("⬅", "➡", "⬆", "⬇")


def move_words(t: Texts, tiles: TileSet, move: Move) -> str:
    """A move in a few signs: «3-5 ➡», «2-2 ⬅ 5-5 ➡», «🎒», «пас»."""
    if isinstance(move, Play):
        return f"{pips(tiles, move.tile)} {ARROWS[move.end]}"
    if isinstance(move, PlayDoubles):
        return " ".join(
            f"{pips(tiles, d)} {ARROWS[e]}" for d, e in zip(move.tiles, move.ends, strict=True)
        )
    return "🎒" if isinstance(move, Draw) else t("review-pass")


def change_words(t: Texts, slip: Slip) -> str:
    """What the better move would have changed, as a player reads it: their points in the
    round, their chances to win and to lose the game in it (what rounds to nothing is left
    out)."""
    points = round(slip.points)
    said = [t("review-points", points=abs(points), more=_more(points))] if points else []
    for key, chance in (("review-winning", slip.winning), ("review-losing", slip.losing)):
        if percent := round(100 * chance):
            said.append(t(key, percent=abs(percent), more=_more(percent)))
    return " ".join(said) or t("review-small")


def _more(change: int) -> str:
    return "yes" if change > 0 else "no"


def slip_caption(t: Texts, tiles: TileSet, slip: Slip) -> str:
    return t(
        "review-slip",
        round=slip.round_no,
        move=slip.move + 1,
        played=move_words(t, tiles, slip.played),
        better=move_words(t, tiles, slip.better),
        change=change_words(t, slip),
    )


def review_summary(t: Texts, game: int, review: Review) -> str:
    if not review.slips:
        return t("review-none", game=game, looked=review.looked, total=review.decisions)
    return t(
        "review-summary",
        game=game,
        count=len(review.slips),
        looked=review.looked,
        total=review.decisions,
    )


def review_mark(t: Texts, tiles: TileSet, seat: int, slip: Slip) -> dict[str, object]:
    """A slip as a record's `review` mark (docs/RECORD.md): where, and in words."""
    return {
        "round": slip.round_no,
        "move": slip.move,
        "seat": seat,
        "played": move_words(t, tiles, slip.played),
        "better": move_words(t, tiles, slip.better),
        "cost": change_words(t, slip),
    }
