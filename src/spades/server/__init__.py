"""spades.server"""
