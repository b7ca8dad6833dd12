"""Telegram group bot for Russian dominoes: «Козёл» (Goat) and its family."""
