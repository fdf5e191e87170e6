#!/bin/bash
# Runs the checker on every program and package of the TEN501 set; writes results/ and a summary.
cd /tmp/r25/ten501
OUT=/tmp/r25/checkers501/results
mkdir -p $OUT
: > $OUT/summary.txt
for t in q*.py pkg_*; do
  name=${t%.py}
  OMP_NUM_THREADS=1 timeout 120 python /tmp/r25/checkers501/check501.py $t --json $OUT/$name.json > $OUT/$name.txt 2>/dev/null
  echo "$name rc=$? $(tail -1 $OUT/$name.txt)" >> $OUT/summary.txt
done
cat $OUT/*.txt | grep -E '^(OK|BAD)' | awk '{print $1, $2}' | sort | uniq -c >> $OUT/summary.txt
cat $OUT/summary.txt
