"""pdn with engines: the seam through which pdn's own search or an outside program values
positions, the engines a user names once, matches (clocks, ratings) and endgame tables."""
