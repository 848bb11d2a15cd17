#!/usr/bin/env python3
"""Streams a puzzle file through a sudoku-grpc server's SolveBatchStream.

A batch client in Python, written against proto/sudoku.proto only: the
stubs are generated from it with grpcio-tools each time the script runs,
into a temporary directory, so nothing generated is kept anywhere.

It reads the file (`-` for stdin) as the `sudoku` command line does (one
puzzle per line; blank lines and lines starting with `#` are skipped, and
so is a UTF-8 byte-order mark at the start), sends the puzzles in
batches of --batch, and writes one line per puzzle to stdout, in input
order, in the command line's text format:

    solved 534678912672195348...
    invalid expected 81 cells (digits 1-9, or '.' or '0' for blanks), found 80

so that its output can be compared with `sudoku solve FILE --local`. Its
exit code is the command line's too: 0 when every puzzle has one solution,
1 when one has none or several, 2 when one is invalid, 3 when the server
gave up on one or failed, or the file cannot be read.

Every response is checked before it is believed: it must answer the batch
that is due (its id), with one result per puzzle, and an outcome this client
knows. A refused batch or a broken stream ends the run with exit code 3.
Unlike the command line, it does not resend batches elsewhere when a stream
breaks; see src/file/remote/ for a client that does.

Usage:
    python3 -m pip install grpcio grpcio-tools
    python3 examples/python/solve_file.py PUZZLES.txt [--server HOST:PORT] [--batch N]
"""

import argparse
import importlib
import io
import os
import queue
import sys
import tempfile
import unicodedata

import grpc
from grpc_tools import protoc

PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "proto")

# The text format's word for each outcome, as `sudoku solve` writes it.
WORDS = {
    "OUTCOME_SOLVED": "solved",
    "OUTCOME_MULTIPLE_SOLUTIONS": "multiple",
    "OUTCOME_NO_SOLUTION": "unsolvable",
    "OUTCOME_INVALID": "invalid",
    "OUTCOME_GAVE_UP": "gave-up",
    "OUTCOME_FAILED": "failed",
}

# The exit code each outcome calls for; a run exits with the worst.
EXIT_CODES = {
    "OUTCOME_SOLVED": 0,
    "OUTCOME_MULTIPLE_SOLUTIONS": 1,
    "OUTCOME_NO_SOLUTION": 1,
    "OUTCOME_INVALID": 2,
    "OUTCOME_GAVE_UP": 3,
    "OUTCOME_FAILED": 3,
}

# Batches sent ahead of the answers: enough to keep the server busy, few
# enough that memory stays small however long the file is.
BATCHES_AHEAD = 8


def generate_stubs(out_dir):
    """Compiles proto/sudoku.proto into `out_dir` and imports its modules."""
    include = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    for proto in ("sudoku.proto", os.path.join("google", "rpc", "status.proto")):
        status = protoc.main([
            "grpc_tools.protoc",
            f"-I{PROTO_DIR}",
            f"-I{include}",
            f"--python_out={out_dir}",
            f"--grpc_python_out={out_dir}",
            proto,
        ])
        if status != 0:
            fail(f"protoc failed on {proto}")
    sys.path.insert(0, out_dir)
    return importlib.import_module("sudoku_pb2"), importlib.import_module("sudoku_pb2_grpc")


def open_input(path):
    """The file (or stdin for `-`) as text: bytes that are not UTF-8
    replaced, a byte-order mark at the start dropped."""
    if path == "-":
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="replace")
    try:
        return open(path, encoding="utf-8-sig", errors="replace")
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror}")


def puzzle_lines(lines):
    """The puzzle lines of `lines`, without their line breaks."""
    for line in lines:
        text = line.rstrip("\r\n")
        stripped = text.strip()
        if stripped and not stripped.startswith("#"):
            yield text


def batches(lines, size):
    """The lines in lists of at most `size`."""
    batch = []
    for line in lines:
        batch.append(line)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def escaped(text):
    """The message with its control characters escaped, as `sudoku` does."""
    special = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
    return "".join(
        special.get(c, f"\\u{{{ord(c):x}}}") if unicodedata.category(c) == "Cc" else c
        for c in text
    )


def fail(message):
    """Ends the run with exit code 3, as the command line does."""
    print(f"solve_file.py: {message}", file=sys.stderr)
    sys.exit(3)


class Protocol(Exception):
    """The server sent something this client cannot trust."""


def output_lines(pb, sent, response):
    """The output lines for one response, checked against the batch sent,
    each with the exit code its outcome calls for."""
    batch_id, puzzles = sent
    if response.id != batch_id:
        raise Protocol(f"an answer with id {response.id!r} where batch {batch_id} was due")
    if response.HasField("error"):
        raise Protocol(f"the server refused batch {batch_id}: {response.error.message}")
    if len(response.results) != len(puzzles):
        raise Protocol(f"{len(response.results)} results for the {len(puzzles)} puzzles "
                       f"of batch {batch_id}")
    for result in response.results:
        name = pb.Outcome.Name(result.outcome) if result.outcome in pb.Outcome.values() else None
        if name not in WORDS:
            raise Protocol(f"an unknown outcome {result.outcome} in batch {batch_id}")
        if result.solution:
            if len(result.solution) != 81 or not result.solution.isdigit() or "0" in result.solution:
                raise Protocol(f"a solution that is not 81 digits 1-9 in batch {batch_id}")
            line = f"{WORDS[name]} {result.solution}"
        elif result.HasField("error"):
            line = f"{WORDS[name]} {escaped(result.error.message)}"
        else:
            line = WORDS[name]
        yield line, EXIT_CODES[name]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a puzzle file, one puzzle per line (- for stdin)")
    parser.add_argument("--server", default="127.0.0.1:50051", help="host:port of the server")
    parser.add_argument("--batch", type=int, default=1024,
                        help="puzzles per message, at most the server's --max-batch")
    args = parser.parse_args()

    source = open_input(args.file)
    with source, tempfile.TemporaryDirectory(prefix="sudoku-stubs-") as stubs:
        pb, pb_grpc = generate_stubs(stubs)
        # The responses to a full batch are larger than gRPC's default 4 MiB
        # limit only for enormous batches; allow what --batch needs.
        options = [("grpc.max_receive_message_length", max(4 << 20, (args.batch + 1) * 1024))]
        with grpc.insecure_channel(args.server, options=options) as channel:
            stub = pb_grpc.SudokuServiceStub(channel)
            # What was sent and awaits an answer, in order; bounded, so the
            # sender waits for answers instead of reading the whole file.
            sent = queue.Queue(maxsize=BATCHES_AHEAD)

            def requests():
                first = 0
                for batch in batches(puzzle_lines(source), max(1, args.batch)):
                    batch_id = str(first)
                    sent.put((batch_id, batch))
                    yield pb.SolveBatchRequest(id=batch_id, puzzles=batch)
                    first += len(batch)

            worst = answer_stream(stub.SolveBatchStream(requests()), sent,
                                  lambda due, response: output_lines(pb, due, response))
    sys.exit(worst)


def answer_stream(responses, sent, lines):
    """Writes the `lines` of each response (with their exit codes), each
    checked against what is due from `sent`; returns the worst exit code.
    A response that cannot be trusted, a failed stream, or a stream that
    ends early ends the run with exit code 3."""
    worst = 0
    try:
        for response in responses:
            if sent.empty():
                raise Protocol("an answer to nothing sent")
            for line, code in lines(sent.get(), response):
                sys.stdout.write(line + "\n")
                worst = max(worst, code)
    except Protocol as error:
        fail(f"protocol error: {error}")
    except grpc.RpcError as error:
        fail(f"the stream failed: {error.code().name}: {error.details()}")
    if not sent.empty():
        fail("the server ended the stream before answering everything")
    return worst


if __name__ == "__main__":
    main()
