"""Every read of a game, for the secrecy tests that walk them all as another seat and as a spectator
(private notes, conditional replies): what is private to a seat must be in none of them."""

EVERY_READ = ("", "/events", "/log", "/moves", "/moves/1", "/record", "/record?chat=1", "/changes?after=0", "/legal",
              "/stream?follow=false", "/stream?follow=false&chat=1", "/board.svg", "/chat?channel=players",
              "/chat?channel=spectators", "/notes", "/conditionals", "/stats", "/rematch")
