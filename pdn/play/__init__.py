"""Playing and judging positions: engines over the Hub protocol, matches, analysis, and the
endgame tables pdn builds."""
