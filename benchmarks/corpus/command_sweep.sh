#!/usr/bin/env bash
# Every command on every shared-corpus file under 1 MB: no traceback may reach stderr, and no
# exit status above 2 (0 clean, 1 problems found, 2 usage). A check for reviews, not a test:
#     bash benchmarks/corpus/command_sweep.sh [CORPUS_DIR]
set -u
corpus="${1:-$(dirname "$0")/../../../shared/corpus}"
out="$(mktemp -d)"
runs=0
bad=0
commands=(
    "validate --notices" "convert --normalize" "convert --to json" "convert --to csv-games"
    "convert --no-comments --no-variations" "convert --squares algebraic --captures full"
    "annotate --fen --problems" "openings" "openings --stats" "report" "select --player a"
    "select --cut-at-error --broken" "dedupe --report" "fix --dates --result-from-terminator"
    "view"
)
while IFS= read -r -d '' file; do
    for command in "${commands[@]}"; do
        runs=$((runs + 1))
        # shellcheck disable=SC2086  # the command's words are meant to split
        timeout 60 pdn $command "$file" -o "$out/output" >/dev/null 2>"$out/stderr"
        status=$?
        if grep -q "Traceback" "$out/stderr" || [ "$status" -gt 2 ]; then
            bad=$((bad + 1))
            echo "== exit $status: pdn $command $file"
            tail -3 "$out/stderr"
        fi
    done
done < <(find "$corpus" -name '*.pdn' -size -1000k -print0 | sort -z)
rm -rf "$out"
echo "$runs runs, $bad with a traceback or an unexpected exit status"
[ "$bad" -eq 0 ]
