// Answers to the page's gRPC-Web calls made up in a test, for what a
// server cannot be made to say on demand: a chain hint with its links and
// branches, or an invalid puzzle with its CellErrors detail. The frames
// are gRPC-Web's: a message frame (flag 0) and a trailers frame (flag 0x80).
import type { Page } from "@playwright/test";
import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import { CellErrorsSchema, HintResponseSchema, type HintResponse } from "../src/gen/sudoku_pb";
import { StatusSchema } from "../src/gen/google/rpc/status_pb";

function frame(flag: number, payload: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flag;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, Buffer.from(payload)]);
}

const HEADERS = { "content-type": "application/grpc-web+proto", "access-control-expose-headers": "*" };

/** Answers the next Hint calls with `answer`. */
export async function fakeHint(page: Page, answer: MessageInitShape<typeof HintResponseSchema>): Promise<void> {
  const message = toBinary(HintResponseSchema, create(HintResponseSchema, answer) as HintResponse);
  const body = Buffer.concat([frame(0, message), frame(0x80, Buffer.from("grpc-status: 0\r\n"))]);
  await page.route("**/sudoku.v1.SudokuService/Hint", (route) => route.fulfill({ status: 200, headers: HEADERS, body }));
}

/** Fails the next calls of `method` with INVALID_ARGUMENT, `message`, and a
 * CellErrors detail naming `cells` ([row, column, digit], 1-based). */
export async function failWithCells(
  page: Page,
  method: string,
  message: string,
  field: string,
  cells: [number, number, number][],
): Promise<void> {
  const detail = create(CellErrorsSchema, {
    field,
    cells: cells.map(([row, column, digit]) => ({ row, column, digit })),
  });
  const status = create(StatusSchema, {
    code: 3,
    message,
    details: [anyPack(CellErrorsSchema, detail)],
  });
  const bin = Buffer.from(toBinary(StatusSchema, status)).toString("base64");
  const trailers = `grpc-status: 3\r\ngrpc-message: ${encodeURIComponent(message)}\r\ngrpc-status-details-bin: ${bin}\r\n`;
  await page.route(`**/sudoku.v1.SudokuService/${method}`, (route) =>
    route.fulfill({ status: 200, headers: HEADERS, body: frame(0x80, Buffer.from(trailers)) }),
  );
}

const c = (row: number, column: number, digit: number) => ({ row, column, digit });
const STRONG = 1;
const WEAK = 2;
const INFERENCE = 3;

/** An X-Chain on the tests' PUZZLE: (2)r9c3=(2)r9c1-(2)r7c1=(2)r7c5, so
 * r7c3, which sees both ends, is not 2. */
export const CHAIN_HINT = {
  outcome: 1,
  step: {
    technique: "X-Chain",
    rating: 6.6,
    units: [
      { kind: 1, number: 9 },
      { kind: 2, number: 1 },
      { kind: 1, number: 7 },
    ],
    cells: [c(9, 3, 2), c(9, 1, 2), c(7, 1, 2), c(7, 5, 2)],
    witnesses: [c(9, 5, 8)],
    links: [
      { source: c(9, 3, 2), target: c(9, 1, 2), kind: STRONG, sourceOn: false, targetOn: true },
      { source: c(9, 1, 2), target: c(7, 1, 2), kind: WEAK, sourceOn: true, targetOn: false },
      { source: c(7, 1, 2), target: c(7, 5, 2), kind: STRONG, sourceOn: false, targetOn: true },
    ],
    eliminations: [c(7, 3, 2)],
    explanation: "X-Chain (2)r9c3=(2)r9c1-(2)r7c1=(2)r7c5: r7c3 sees both ends, so it is not 2.",
  },
};

/** A forcing chain with two branches, one of them nested (an inference). */
export const FORCING_HINT = {
  outcome: 1,
  step: {
    technique: "Cell Forcing Chain",
    rating: 8.3,
    units: [{ kind: 3, number: 1 }],
    cells: [c(1, 3, 1), c(1, 3, 2)],
    branches: [
      {
        assumption: c(1, 3, 1),
        assumedOn: true,
        links: [{ source: c(1, 3, 1), target: c(3, 1, 1), kind: WEAK, sourceOn: true, targetOn: false }],
        result: c(3, 1, 1),
        resultOn: false,
      },
      {
        assumption: c(1, 3, 2),
        assumedOn: true,
        links: [
          { source: c(1, 3, 2), target: c(1, 4, 2), kind: WEAK, sourceOn: true, targetOn: false },
          { source: c(1, 4, 2), target: c(3, 1, 1), kind: INFERENCE, sourceOn: false, targetOn: false },
        ],
        result: c(3, 1, 1),
        resultOn: false,
        techniques: ["Hidden Single"],
      },
    ],
    eliminations: [c(3, 1, 1)],
    explanation: "Whether r1c3 is 1 or 2, r3c1 is not 1.",
  },
};

/** Eliminations in r6c3, where a player who wrote no candidates has none. */
export const TRIPLE_HINT = {
  outcome: 1,
  step: {
    technique: "Naked Triple",
    rating: 3.6,
    units: [{ kind: 2, number: 3 }],
    cells: [c(4, 3, 0), c(5, 3, 0), c(8, 3, 0)],
    eliminations: [c(6, 3, 5)],
    explanation: "Naked Triple in column 3: r6c3 is not 5.",
  },
};

/** A grouped link: (2)r7c12 is a group end (the 2 of row 7, box 7 is in
 * r7c1 or r7c2). */
export const GROUPED_HINT = {
  outcome: 1,
  step: {
    technique: "Grouped Skyscraper",
    rating: 4.2,
    units: [{ kind: 1, number: 7 }],
    cells: [c(7, 1, 2), c(7, 2, 2), c(7, 5, 2)],
    links: [
      {
        source: c(7, 1, 2),
        sourceGroup: [c(7, 1, 2), c(7, 2, 2)],
        target: c(7, 5, 2),
        kind: STRONG,
        sourceOn: false,
        targetOn: true,
      },
    ],
    eliminations: [c(8, 5, 2)],
    explanation: "Grouped Skyscraper (2)r7c12=(2)r7c5: r8c5 is not 2.",
  },
};
