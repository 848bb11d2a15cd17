// The service over gRPC-Web, from the page's own origin.

import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import {
  CellErrorsSchema,
  Level,
  SudokuService,
  type ExplainResponse,
  type GenerateResponse,
  type HintResponse,
  type SolveResponse,
} from "./gen/sudoku_pb";

const transport = createGrpcWebTransport({
  baseUrl: window.location.origin,
  useBinaryFormat: true,
});

const client = createClient(SudokuService, transport);

export async function generate(level: Level, seed: bigint): Promise<GenerateResponse> {
  for await (const response of client.generate(
    { count: 1, level, seed },
    { timeoutMs: 60_000 },
  )) {
    return response;
  }
  throw new ConnectError("the server sent no puzzle", Code.Internal);
}

export function solve(puzzle: string): Promise<SolveResponse> {
  return client.solve({ puzzle, grade: true }, { timeoutMs: 20_000 });
}

export function hint(puzzle: string, progress: string, marks: string): Promise<HintResponse> {
  return client.hint({ puzzle, progress, marks }, { timeoutMs: 20_000 });
}

/** The path from the player's position (`progress` and `marks`), or from
 * the givens when both are empty. */
export function explain(puzzle: string, progress: string, marks: string): Promise<ExplainResponse> {
  return client.explain({ puzzle, progress, marks }, { timeoutMs: 30_000 });
}

/** A failed call, in the terms the page shows. */
export interface Failure {
  /** The server could not be reached (or is going away): offer Retry. */
  unreachable: boolean;
  /** The service refused the input (INVALID_ARGUMENT). */
  invalid: boolean;
  message: string;
  /** The request field a google.rpc.BadRequest names, when there is one. */
  field: string;
  /** The cells a sudoku.v1.CellErrors detail names (0-based cell indexes),
   * and the field it is about. */
  cells: number[];
  cellsField: string;
}

export function describeFailure(reason: unknown): Failure {
  const error = ConnectError.from(reason);
  const network =
    error.code === Code.Unknown && (error.cause instanceof TypeError || /fetch/i.test(error.rawMessage));
  const unreachable = error.code === Code.Unavailable || network;
  let message = error.rawMessage;
  if (unreachable) {
    message = "The Sudoku server cannot be reached. Check that it is running, then retry.";
  } else if (error.code === Code.DeadlineExceeded) {
    message = "The server took too long to answer. Try again.";
  } else if (error.code === Code.ResourceExhausted && !message) {
    message = "The server is busy. Try again in a moment.";
  }
  return {
    unreachable,
    invalid: error.code === Code.InvalidArgument,
    message: message || `The call failed (${Code[error.code]}).`,
    field: badRequestField(error),
    ...cellErrors(error),
  };
}

/** The cells an INVALID_ARGUMENT status names in its CellErrors detail. */
function cellErrors(error: ConnectError): { cells: number[]; cellsField: string } {
  const cells: number[] = [];
  let cellsField = "";
  for (const detail of error.findDetails(CellErrorsSchema)) {
    cellsField ||= detail.field;
    for (const c of detail.cells) {
      if (c.row >= 1 && c.row <= 9 && c.column >= 1 && c.column <= 9) {
        const cell = (c.row - 1) * 9 + c.column - 1;
        if (!cells.includes(cell)) cells.push(cell);
      }
    }
  }
  return { cells, cellsField };
}

/** The field of the first violation in a google.rpc.BadRequest detail,
 * read straight from its wire form (field_violations = 1, field = 1). */
function badRequestField(error: ConnectError): string {
  for (const detail of error.details) {
    if (!("type" in detail) || detail.type !== "google.rpc.BadRequest") continue;
    try {
      const outer = new BinaryReader(detail.value);
      while (outer.pos < outer.len) {
        const [number, wireType] = outer.tag();
        if (number !== 1) {
          outer.skip(wireType);
          continue;
        }
        const inner = new BinaryReader(outer.bytes());
        while (inner.pos < inner.len) {
          const [innerNumber, innerType] = inner.tag();
          if (innerNumber === 1) return inner.string();
          inner.skip(innerType);
        }
      }
    } catch {
      // an unreadable detail names no field
    }
  }
  return "";
}

export { Level };
