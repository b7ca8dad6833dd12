"""End-to-end tests: the real bot process (`python -m bot`) against the fake Bot API, and
players who act only through what their chats show them. The harness: `process` (the bot
process), `actions` (the players' side), `shown` (what the chats say), `stored` (the bot's
database, read-only, and a game replayed from its log) and `checks` (what the bot showed
against the engine's results, recomputed here, not taken from the bot)."""
