"""Routers, one per feature; `routers()` lists them in the order they must be tried."""

from aiogram import Router

from bot.telegram.handlers import (
    admin,
    again,
    chat,
    fallback,
    history,
    info,
    lobby,
    play,
    ratings,
    seasons,
    settings,
)


def routers() -> list[Router]:
    return [
        chat.router,
        lobby.router,
        again.router,
        play.router,
        admin.router,
        info.router,
        ratings.router,
        seasons.router,
        history.router,
        settings.router,
        fallback.router,
    ]
