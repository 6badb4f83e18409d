"""Trike (Alek Erickson, 2020): a neutral pawn on a triangular hex board, pie rule, no draws."""
