# A round's replay (an animated GIF): the first frame's caption, the table as dealt (the
# moves' frames are record.ftl's replay-frame, the last one the round's result).
replay-deal = Round { $round } · the deal
