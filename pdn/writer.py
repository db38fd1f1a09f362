def write_game(game, normalize=False, columns=80): return ""
