"""pdn against engines: playing them (matches, their clocks, their ratings) and, later, the
Hub protocol, analysis and endgame tables, as the layout of issue 35 gathers them here."""
