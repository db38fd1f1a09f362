"""The PDN grammar, shipped as package data (``pdn.lark``)."""
