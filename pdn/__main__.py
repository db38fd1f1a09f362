"""``python -m pdn``: the same as the ``pdn`` command."""

from pdn.cli import main

if __name__ == "__main__":
    main()
