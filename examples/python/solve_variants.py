#!/usr/bin/env python3
"""Streams variant puzzles through a sudoku-grpc server's SolveVariantStream.

Reads a file (`-` for stdin) of f-puzzles puzzles, one per line (JSON, a
link that carries it, or the compressed payload; blank lines and lines
starting with `#` skipped), and writes one line per puzzle, in order, in
the command line's text format, so that its output can be compared with
`sudoku solve FILE --local`:

    solved 123456456123231564564231312645645312
    multiple FIRST SECOND
    unsolvable
    invalid grid: missing: an f-puzzles puzzle has a grid

Its exit code is the command line's: 0 when every puzzle has one solution,
1 when one has none or several, 2 when one is invalid, 3 when the server
gave up on one or failed, or the file cannot be read. Every response is
checked for the id due, a known outcome, and solutions of digits 1-9 and
A-P that fill a square grid, as many as the outcome says.

Usage:
    python3 -m pip install grpcio grpcio-tools
    python3 examples/python/solve_variants.py PUZZLES.jsonl [--server HOST:PORT]
"""

import argparse
import math
import queue
import sys
import tempfile

import grpc

from solve_file import (EXIT_CODES, WORDS, Protocol, answer_stream, escaped, generate_stubs,
                        open_input, puzzle_lines)

# Puzzles sent ahead of their answers.
AHEAD = 256
DIGITS = set("123456789ABCDEFGHIJKLMNOP")
SOLUTIONS_FOR = {"OUTCOME_SOLVED": 1, "OUTCOME_MULTIPLE_SOLUTIONS": 2}


def output_line(pb, due, response):
    """The output line for one response, checked, with its exit code."""
    if response.id != due:
        raise Protocol(f"an answer with id {response.id!r} where puzzle {due}'s was due")
    name = pb.Outcome.Name(response.outcome) if response.outcome in pb.Outcome.values() else None
    if name not in WORDS:
        raise Protocol(f"an unknown outcome {response.outcome} for puzzle {due}")
    solutions = list(response.solutions)
    if len(solutions) != SOLUTIONS_FOR.get(name, 0):
        raise Protocol(f"{len(solutions)} solutions with {name} for puzzle {due}")
    for solution in solutions:
        side = math.isqrt(len(solution))
        if side * side != len(solution) or not set(solution) <= DIGITS:
            raise Protocol(f"a solution that is not a square grid of digits for puzzle {due}")
    if len(solutions) == 2 and solutions[0] == solutions[1]:
        raise Protocol(f"the same solution twice for puzzle {due}")
    parts = [WORDS[name]] + solutions
    if response.HasField("error"):
        parts.append(escaped(response.error.message))
    return " ".join(parts), EXIT_CODES[name]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="f-puzzles puzzles, one per line (- for stdin)")
    parser.add_argument("--server", default="127.0.0.1:50051", help="host:port of the server")
    args = parser.parse_args()

    source = open_input(args.file)
    with source, tempfile.TemporaryDirectory(prefix="sudoku-stubs-") as stubs:
        pb, pb_grpc = generate_stubs(stubs)
        with grpc.insecure_channel(args.server) as channel:
            stub = pb_grpc.SudokuServiceStub(channel)
            sent = queue.Queue(maxsize=AHEAD)

            def requests():
                for number, text in enumerate(puzzle_lines(source), 1):
                    sent.put(str(number))
                    yield pb.SolveVariantRequest(
                        id=str(number), puzzle=pb.VariantSource(fpuzzles=text))

            worst = answer_stream(stub.SolveVariantStream(requests()), sent,
                                  lambda due, response: [output_line(pb, due, response)])
    sys.exit(worst)


if __name__ == "__main__":
    main()
