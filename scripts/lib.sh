# Shared by the scripts in scripts/ and .ci/: source it, don't run it.
#
#   start_server LOG [FLAGS...]  starts target/release/sudoku-server (or
#                                $SERVER_BIN) on an ephemeral port of
#                                127.0.0.1 with FLAGS, its stderr in LOG;
#                                sets server_pid and server (host:port)
#   stop_server                  SIGTERM, and waits for it
#   puzzle_dir [DIR]             the puzzle sets: DIR, else $SUDOKU_PUZZLES,
#                                else puzzles/ (scripts/fetch-puzzles.sh)
#   easy_set DIR                 the easy set in DIR: kaggle_like.txt, or
#                                the Kaggle sample fetch-puzzles.sh makes
#   puzzle_count FILE            the puzzle lines of FILE

server_pid=
server=

start_server() {
    local log=$1
    shift
    "${SERVER_BIN:-target/release/sudoku-server}" --listen 127.0.0.1:0 "$@" >/dev/null 2>"$log" &
    server_pid=$!
    server=
    for _ in $(seq 200); do
        server=$(sed -n 's/.*address=\([0-9.:]*\).*/\1/p' "$log" | head -n 1)
        [ -n "$server" ] && return 0
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.05
    done
    echo "the server did not start; its log:" >&2
    cat "$log" >&2
    return 1
}

stop_server() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=
}

puzzle_dir() {
    local dir=${1:-${SUDOKU_PUZZLES:-puzzles}}
    if [ ! -d "$dir" ]; then
        echo "no puzzle sets in $dir: run scripts/fetch-puzzles.sh, or name a directory" >&2
        return 2
    fi
    echo "$dir"
}

easy_set() {
    local name
    for name in kaggle_like.txt kaggle.txt; do
        [ -f "$1/$name" ] && { echo "$1/$name"; return 0; }
    done
    echo "no easy set (kaggle_like.txt or kaggle.txt) in $1" >&2
    return 2
}

puzzle_count() {
    grep -cv '^[[:space:]]*\(#\|$\)' "$1"
}
