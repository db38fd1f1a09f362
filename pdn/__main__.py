"""``python -m pdn``: the same as the ``pdn`` command."""

from .cli import main

if __name__ == "__main__":
    main()
