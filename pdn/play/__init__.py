"""Playing and judging with engines: the seam through which pdn's own search or an outside
program values positions (:mod:`pdn.play.evaluators`) and the engines a user names once."""
