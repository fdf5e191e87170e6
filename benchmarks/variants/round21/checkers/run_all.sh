#!/bin/bash
# Runs every program of the TEN501 set (plain, then under the checker), one at a time.
set -u
ROOT=/tmp/r21/ten501
OUT=/tmp/r21/checkers/results
mkdir -p "$OUT"
cd "$ROOT"
fail=0
targets=$(ls t*.py)
for t in $targets pkg_a.main pkg_b.main; do
  if [[ $t == *.py ]]; then plain=(python "$t"); chk=(python /tmp/r21/checkers/check_ten501.py "$t");
  else plain=(python -m "$t"); chk=(python /tmp/r21/checkers/check_ten501.py -m "$t" --root "$ROOT"); fi
  s=$(date +%s.%N)
  "${plain[@]}" > "$OUT/$t.stdout" 2> "$OUT/$t.stderr"; rc=$?
  e=$(date +%s.%N)
  "${chk[@]}" --json "$OUT/$t.json" > "$OUT/$t.check" 2>&1; crc=$?
  printf "%-32s plain rc=%s %5.1fs  check rc=%s  %s\n" "$t" "$rc" "$(echo "$e - $s" | bc)" "$crc" "$(tail -1 "$OUT/$t.check")"
  [[ $rc -ne 0 || $crc -ne 0 ]] && fail=1
done
exit $fail
