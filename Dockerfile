# sudoku-server in a small, non-root image.
#
#   docker build -t sudoku-grpc .
#   docker run --rm -p 50051:50051 sudoku-grpc
#
# The base images are pinned to exact versions; pin them to digests too
# (`docker buildx imagetools inspect IMAGE`) where your registry policy
# requires it.

FROM rust:1.95.0-slim-trixie AS build
WORKDIR /src

# Dependencies first, in their own layer: this rebuilds only when the
# manifests, the lock file, the build script or the protos change.
COPY Cargo.toml Cargo.lock build.rs ./
COPY crates/sudoku-core/Cargo.toml ./crates/sudoku-core/
COPY proto ./proto
RUN mkdir -p src/bin crates/sudoku-core/src crates/sudoku-core/benches \
    && touch src/lib.rs crates/sudoku-core/src/lib.rs \
    && echo 'fn main() {}' > src/bin/sudoku-server.rs \
    && echo 'fn main() {}' > src/bin/sudoku.rs \
    && echo 'fn main() {}' > crates/sudoku-core/benches/solver.rs \
    && cargo build --release --locked --bins \
    && rm -rf src crates/sudoku-core/src crates/sudoku-core/benches

# Then the project itself, stripped.
COPY src ./src
COPY crates ./crates
RUN touch src/lib.rs crates/sudoku-core/src/lib.rs \
    && CARGO_PROFILE_RELEASE_STRIP=symbols cargo build --release --locked --bins

# distroless/cc: glibc and libgcc, no shell, a built-in non-root user.
FROM gcr.io/distroless/cc-debian13:nonroot
COPY --from=build /src/target/release/sudoku-server /src/target/release/sudoku /usr/local/bin/

# Every flag of sudoku-server can be set through its SUDOKU_* variable,
# e.g. SUDOKU_METRICS_LISTEN=0.0.0.0:9090 for Prometheus metrics,
# SUDOKU_LOG_FORMAT=json, SUDOKU_TLS_CERT/SUDOKU_TLS_KEY for TLS. With TLS on,
# give the health check its trust too: SUDOKU_TLS_CA (and, for mutual TLS,
# SUDOKU_CLIENT_TLS_CERT/SUDOKU_CLIENT_TLS_KEY).
ENV SUDOKU_LISTEN=0.0.0.0:50051 \
    SUDOKU_SERVER=127.0.0.1:50051 \
    RUST_LOG=info
EXPOSE 50051
# 65532 is the "nonroot" user of the distroless images.
USER 65532:65532
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/sudoku", "health"]
ENTRYPOINT ["/usr/local/bin/sudoku-server"]
