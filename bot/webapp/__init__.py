"""The table app's shell (issue #49): Telegram's Mini App opened from a group, served by the
bot's own web server beside the Telegram shell — knowing no aiogram."""
