"""Yamen: hidden-role card games from China and Japan, for people, bots and RL agents."""

__version__ = "0.1.0"
