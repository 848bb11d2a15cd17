//! The service's RPCs, as one table: each one's method name, its shape
//! (how many messages each side sends) and the size of its messages. What
//! the rest of the server asks of an RPC (its slots under the call caps,
//! whether its handler waits for one request, its metric label) is read
//! from its row, so that adding an RPC here is one variant and one row.

/// The service's RPCs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rpc {
    /// Unary `Solve`.
    Solve = 0,
    /// Bidirectional `SolveStream`.
    SolveStream = 1,
    /// Unary `SolveBatch`.
    SolveBatch = 2,
    /// Bidirectional `SolveBatchStream`.
    SolveBatchStream = 3,
    /// Unary `Hint`.
    Hint = 4,
    /// Unary `Explain`.
    Explain = 5,
    /// Server-streaming `Generate`.
    Generate = 6,
    /// Unary `SolveVariant`.
    SolveVariant = 7,
    /// Bidirectional `SolveVariantStream`.
    SolveVariantStream = 8,
    /// Unary `VariantCandidates`.
    VariantCandidates = 9,
}

/// How many messages each side of a call sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// One request, one response.
    Unary,
    /// One request, many responses.
    ServerStreaming,
    /// Many of each.
    Bidirectional,
}

/// How large a call's messages may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Messages {
    /// Up to `--max-message-bytes`.
    Small,
    /// Many puzzles a message: a limit of their own.
    Batch,
    /// A small request and a response of up to 1 MiB (Explain).
    LargeResponse,
    /// A variant puzzle: up to 64 KiB each way, and up to 3 MiB once
    /// decoded (see `limits`).
    Variant,
}

/// One RPC's row of [`ROWS`].
struct Row {
    rpc: Rpc,
    method: &'static str,
    shape: Shape,
    messages: Messages,
}

/// A row of [`ROWS`].
const fn row(rpc: Rpc, method: &'static str, shape: Shape, messages: Messages) -> Row {
    Row {
        rpc,
        method,
        shape,
        messages,
    }
}

/// Every RPC, in the order of its discriminant.
const ROWS: [Row; 10] = {
    use Messages::*;
    use Shape::*;
    [
        row(Rpc::Solve, "Solve", Unary, Small),
        row(Rpc::SolveStream, "SolveStream", Bidirectional, Small),
        row(Rpc::SolveBatch, "SolveBatch", Unary, Batch),
        row(
            Rpc::SolveBatchStream,
            "SolveBatchStream",
            Bidirectional,
            Batch,
        ),
        row(Rpc::Hint, "Hint", Unary, Small),
        row(Rpc::Explain, "Explain", Unary, LargeResponse),
        row(Rpc::Generate, "Generate", ServerStreaming, Small),
        row(Rpc::SolveVariant, "SolveVariant", Unary, Variant),
        row(
            Rpc::SolveVariantStream,
            "SolveVariantStream",
            Bidirectional,
            Variant,
        ),
        row(Rpc::VariantCandidates, "VariantCandidates", Unary, Variant),
    ]
};

impl Rpc {
    /// How many RPCs there are.
    pub const COUNT: usize = ROWS.len();

    /// Every RPC, in the order of its discriminant.
    pub const ALL: [Rpc; Rpc::COUNT] = {
        let mut all = [Rpc::Solve; Rpc::COUNT];
        let mut index = 0;
        while index < Rpc::COUNT {
            all[index] = ROWS[index].rpc;
            index += 1;
        }
        all
    };

    fn row(self) -> &'static Row {
        &ROWS[self as usize]
    }

    /// The RPC a request path names, if it is one of this service's.
    pub fn from_path(path: &str) -> Option<Rpc> {
        let method = path.strip_prefix("/sudoku.v1.SudokuService/")?;
        Rpc::ALL.into_iter().find(|rpc| rpc.label() == method)
    }

    /// True for the RPCs that carry many puzzles per message, which have
    /// call slots and a message size limit of their own.
    pub fn is_batch(self) -> bool {
        self.row().messages == Messages::Batch
    }

    /// True for the RPCs whose messages may be far larger than
    /// `--max-message-bytes`: the batches, Explain, whose response
    /// may reach 1 MiB, and the variant RPCs. They share the batch calls'
    /// slots (`--max-batch-calls`), so that the memory bound covers them.
    pub fn has_large_messages(self) -> bool {
        self.row().messages != Messages::Small
    }

    /// True for the variant RPCs, which have a message size limit of
    /// their own.
    pub fn is_variant(self) -> bool {
        self.row().messages == Messages::Variant
    }

    /// True for the unary RPCs.
    pub fn is_unary(self) -> bool {
        self.row().shape == Shape::Unary
    }

    /// True for the RPCs whose client sends one request message (the
    /// unary ones and Generate): their handler runs once it has arrived.
    pub fn has_one_request(self) -> bool {
        self.row().shape != Shape::Bidirectional
    }

    /// What sets the largest request message the RPC accepts.
    pub fn message_limit(self) -> &'static str {
        if self.is_batch() {
            "a full batch: --max-batch puzzles of 2048 bytes"
        } else if self.is_variant() {
            "64 KiB for a variant puzzle; send larger f-puzzles JSON as its compressed link"
        } else {
            "--max-message-bytes"
        }
    }

    /// The RPC's method name.
    pub fn label(self) -> &'static str {
        self.row().method
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_is_at_its_rpc_s_index_and_names_a_method_of_the_proto() {
        for (index, row) in ROWS.iter().enumerate() {
            assert_eq!(row.rpc as usize, index, "{}", row.method);
            let path = format!("/sudoku.v1.SudokuService/{}", row.method);
            assert_eq!(Rpc::from_path(&path), Some(row.rpc));
        }
        use prost::Message;
        let descriptors =
            prost_types::FileDescriptorSet::decode(crate::pb::FILE_DESCRIPTOR_SET).unwrap();
        let service = descriptors
            .file
            .iter()
            .flat_map(|file| &file.service)
            .find(|service| service.name() == "SudokuService")
            .unwrap();
        let methods: Vec<&str> = service.method.iter().map(|method| method.name()).collect();
        let labels: Vec<&str> = Rpc::ALL.map(Rpc::label).to_vec();
        assert_eq!(
            methods, labels,
            "one row per RPC of the proto, in its order"
        );
        for method in &service.method {
            let rpc = Rpc::from_path(&format!("/sudoku.v1.SudokuService/{}", method.name()));
            let rpc = rpc.unwrap();
            assert_eq!(
                rpc.is_unary(),
                !method.client_streaming() && !method.server_streaming()
            );
            assert_eq!(
                rpc.has_one_request(),
                !method.client_streaming(),
                "{}",
                method.name()
            );
        }
    }
}
