"""spades.store"""
