"""Achievements: badges a person earns in a chat with finished games, judged from the games'
records (`rules`: one definition each), kept per chat, person, achievement and game
(`store`), and back-filled over every stored game."""

from bot.core.achievements.kinds import Achievement
from bot.core.achievements.rules import DEFINITIONS, Definition, earned

__all__ = ["DEFINITIONS", "Achievement", "Definition", "earned"]
