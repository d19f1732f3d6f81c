"""Bots for Criminal Poker 犯罪心理."""
