"""spades.cli"""
